extension Redactor {
    /// Set-Cookie attributes whose values are kept; any other attribute's value is redacted.
    private static let cookieAttributes: Set<String> = [
        "path", "domain", "expires", "maxage", "secure", "httponly", "samesite", "partitioned", "priority",
    ]

    /// A `Cookie` header value with every cookie's value redacted and names kept:
    /// `session=[REDACTED]; theme=[REDACTED]`.
    func redactCookie(_ value: String, field: String) -> Redacted {
        var parts: [String] = []
        var fields: [String] = []
        for piece in value.split(separator: ";", omittingEmptySubsequences: false) {
            let pair = piece.drop { $0 == " " }
            if let equals = pair.firstIndex(of: "=") {
                let name = pair[..<equals]
                parts.append("\(name)=\(RedactionDefaults.placeholder)")
                fields.append(field + RedactionName.lower(name.utf8))
            } else if pair.isEmpty {
                parts.append("")
            } else {
                parts.append(RedactionDefaults.placeholder)
                fields.append(field + "(unnamed)")
            }
        }
        return Redacted(text: parts.joined(separator: "; "), redactedFields: fields)
    }

    /// A `Set-Cookie` value: the cookie's value redacted, its name and the standard
    /// attributes (Path, Domain, Expires, Max-Age, Secure, HttpOnly, SameSite…) kept.
    func redactSetCookie(_ value: String, field: String) -> Redacted {
        var parts: [String] = []
        var fields: [String] = []
        for (index, piece) in value.split(separator: ";", omittingEmptySubsequences: false).enumerated() {
            let pair = piece.drop { $0 == " " }
            let equals = pair.firstIndex(of: "=")
            let name = equals.map { pair[..<$0] } ?? pair
            if index == 0 {
                parts.append(equals == nil ? RedactionDefaults.placeholder : "\(name)=\(RedactionDefaults.placeholder)")
                fields.append(field + (equals == nil ? "(unnamed)" : RedactionName.lower(name.utf8)))
            } else if equals == nil || Self.cookieAttributes.contains(RedactionName.normalize(name.utf8)) {
                parts.append(String(pair))
            } else {
                parts.append("\(name)=\(RedactionDefaults.placeholder)")
            }
        }
        return Redacted(text: parts.joined(separator: "; "), redactedFields: fields)
    }
}
