extension Redactor {
    /// A captured body as it may be logged: JSON (`application/json`, `+json`, or an
    /// untyped body that starts like JSON) has named fields redacted at any depth, a form
    /// (`application/x-www-form-urlencoded`) has named fields redacted (body field names
    /// and query parameter names), any other text goes through `redact(text:)`. Invalid
    /// UTF-8 becomes U+FFFD. Fields: `<direction>.body.<name>`.
    public func redactBody(_ body: [UInt8], contentType: String?, direction: LogDirection) -> Redacted {
        let field = "\(direction.rawValue).body."
        switch Self.bodyKind(contentType, body) {
        case .json:
            let (bytes, fields, wellFormed) = JSONFieldScanner(names: bodyFieldNames, field: field).redact(body)
            guard !wellFormed else { return Redacted(text: String(decoding: bytes, as: UTF8.self), redactedFields: fields) }
            // Broken quoting can hide a pair from the JSON pass: a free-text pass catches `name":"value`.
            let (text, more) = TextRedactionScanner(redactor: self, field: "\(direction.rawValue).body").redact(bytes)
            return Redacted(text: String(decoding: text, as: UTF8.self), redactedFields: fields + more)
        case .form:
            var out: [UInt8] = []
            var fields: [String] = []
            let changed = redactPairs(body[...], names: bodyFieldNames.union(queryNames), field: field, &out, &fields)
            return Redacted(text: String(decoding: changed ? out : body, as: UTF8.self), redactedFields: fields)
        case .text:
            return redact(text: String(decoding: body, as: UTF8.self), field: "\(direction.rawValue).body")
        }
    }

    private enum BodyKind { case json, form, text }

    private static func bodyKind(_ contentType: String?, _ body: [UInt8]) -> BodyKind {
        let media = MediaType.essence(contentType)
        if media == "application/json" || media.hasSuffix("+json") { return .json }
        if media == "application/x-www-form-urlencoded" { return .form }
        if media.isEmpty, let first = body.first(where: { !ByteSearch.isSpace($0) }),
           first == UInt8(ascii: "{") || first == UInt8(ascii: "[") {
            return .json
        }
        return .text
    }
}
