/// One HTTP/1.1 response read off the wire by `HTTPResponseParser`.
public struct ParsedResponse: Sendable {
    /// The status code.
    public let status: Int
    /// The header fields in order, names as sent.
    public let headers: [(name: String, value: String)]
    /// The body, de-chunked.
    public let body: [UInt8]

    /// A response made of its parts.
    public init(status: Int, headers: [(name: String, value: String)], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first value of field `name` (any case).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }
}
