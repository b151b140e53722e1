/// The `log.redact` setting: names added to and removed from the default redaction
/// sets (headers, header-name substrings, query parameters, body fields). Each list is
/// kept as written; matching is case-insensitive.
public struct LogConfigRedaction: Sendable, Equatable {
    /// Extra header names whose values are redacted.
    public let headers: [String]
    /// Header names never redacted (taken out of the defaults and the substring rule).
    public let headersKeep: [String]
    /// Extra header-name substrings.
    public let headerSubstrings: [String]
    /// Default header-name substrings to drop.
    public let headerSubstringsKeep: [String]
    /// Extra query parameter names.
    public let query: [String]
    /// Default query parameter names to drop.
    public let queryKeep: [String]
    /// Extra JSON and form body field names.
    public let bodyFields: [String]
    /// Default body field names to drop.
    public let bodyFieldsKeep: [String]

    /// Creates the setting; the defaults change nothing.
    public init(
        headers: [String] = [], headersKeep: [String] = [],
        headerSubstrings: [String] = [], headerSubstringsKeep: [String] = [],
        query: [String] = [], queryKeep: [String] = [],
        bodyFields: [String] = [], bodyFieldsKeep: [String] = []
    ) {
        self.headers = headers
        self.headersKeep = headersKeep
        self.headerSubstrings = headerSubstrings
        self.headerSubstringsKeep = headerSubstringsKeep
        self.query = query
        self.queryKeep = queryKeep
        self.bodyFields = bodyFields
        self.bodyFieldsKeep = bodyFieldsKeep
    }
}
