extension Redactor {
    /// Authorization schemes kept in front of a redacted credential (`Bearer [REDACTED]`).
    private static let authSchemes: Set<String> = [
        "basic", "bearer", "digest", "negotiate", "ntlm", "dpop", "hoba", "mutual", "token", "oauth",
        "aws4-hmac-sha256",
    ]
    /// Headers whose value is a URL: their userinfo and query secrets are redacted.
    static let urlHeaders: Set<String> = ["location", "contentlocation", "referer", "origin"]
    /// Headers nearly every message carries, lowercase and spelled as they travel; those the
    /// rules leave alone skip the substring scan (see `verbatimHeaderNames` and `verbatimSpellings`).
    static let commonHeaderSpellings = [
        "host", "user-agent", "accept", "accept-encoding", "accept-language", "content-type", "content-length",
        "server", "date", "connection", "cache-control", "etag", "last-modified", "vary", "via", "x-forwarded-for",
        "x-forwarded-proto", "x-forwarded-host", "transfer-encoding", "keep-alive", "pragma", "expires", "age",
        "accept-ranges", "content-encoding", "if-none-match", "if-modified-since", "x-request-id", "upgrade", "range",
        "content-range", "te", "trailer", "x-content-type-options", "strict-transport-security",
    ]
    /// `commonHeaderSpellings` normalised (no `-` or `_`), as the rules compare names.
    static let commonHeaders = commonHeaderSpellings.map(RedactionName.normalize)

    /// The value of header `name` as it may be logged. Cookie values are redacted with
    /// cookie names kept (Set-Cookie attributes kept too); an Authorization value keeps its
    /// scheme; a sensitive header's whole value is replaced; a Location or Referer URL has
    /// its userinfo and sensitive parameters redacted. Fields: `<direction>.header.<name>`
    /// or `<direction>.cookie.<cookie name>`.
    public func redactHeader(name: String, value: String, direction: LogDirection) -> Redacted {
        let normalized = RedactionName.normalize(name)
        if verbatimHeaderNames.contains(normalized) { return Redacted(text: value) }
        // Built only when something is redacted: most headers are not.
        var field: String { "\(direction.rawValue).header.\(RedactionName.lower(name.utf8))" }
        switch normalized {
        case "cookie" where headerNames.contains(normalized):
            return redactCookie(value, field: direction.cookieFieldPrefix)
        case "setcookie" where headerNames.contains(normalized):
            return redactSetCookie(value, field: direction.cookieFieldPrefix)
        default:
            break
        }
        if headerNames.contains(normalized) || containsSubstring(normalized) {
            return Redacted(text: Self.redactCredential(value), redactedFields: [field])
        }
        if Self.urlHeaders.contains(normalized) {
            return redactURL(value, field: field)
        }
        // Any other value through the free-text rules (`Link: <…?access_token=…>`,
        // `X-Debug: token=…`), when it has what a secret there needs: a separator or a space.
        var copy = value
        let mayHold = copy.withUTF8 { TextRedactionScanner.mayHoldSecret($0) }
        return mayHold ? redact(text: value, field: field) : Redacted(text: value)
    }

    /// The lowercase name of header `name` when its value is logged as it is by name alone
    /// (a common header these rules leave alone, spelled as it travels), else nil: the fast
    /// path of `LogRecord.addHeader`, which then needs neither `redactHeader` nor a lowercase copy.
    public func verbatimHeaderName(_ name: String) -> String? {
        verbatimSpellings.lowercased(name)
    }

    /// `verbatimHeaderName(_:)` for a name given as its bytes.
    public func verbatimHeaderName(bytes name: UnsafeRawBufferPointer) -> String? {
        verbatimSpellings.lowercased(bytes: name)
    }

    /// Where `verbatimHeaderName(bytes:)`'s spelling for `name` is in `commonHeaderSpellings`,
    /// when it has one: the name without a String made.
    func verbatimSpellingPosition(headerName name: UnsafeRawBufferPointer) -> Int? {
        verbatimSpellings.position(bytes: name)
    }

    /// `value` with everything but a recognised auth scheme replaced.
    static func redactCredential(_ value: String) -> String {
        let trimmed = value.drop { $0 == " " || $0 == "\t" }
        guard let space = trimmed.firstIndex(where: { $0 == " " || $0 == "\t" }) else {
            return RedactionDefaults.placeholder
        }
        let scheme = trimmed[..<space]
        guard authSchemes.contains(scheme.lowercased()) else { return RedactionDefaults.placeholder }
        return "\(scheme) \(RedactionDefaults.placeholder)"
    }
}
