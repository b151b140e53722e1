/// One HTTP/1.1 message as `StrictHTTPParser` read it off a byte stream: start line, fields
/// as sent (names lowercased, values without surrounding whitespace), the decoded body and
/// any trailer fields.
struct StrictMessage: Sendable {
    /// How the body was delimited on the wire.
    enum Framing: Sendable, Equatable {
        case none
        case contentLength
        case chunked
        case untilClose
    }

    /// Request method, or nil for a response.
    var method: String?
    /// Request target, or nil for a response.
    var target: String?
    /// Status code, or nil for a request.
    var status: Int?
    var version: String
    var headers: [Field]
    var body: [UInt8]
    var trailers: [Field]
    var framing: Framing
    /// Where the message starts in the stream.
    var offset: Int

    /// A header or trailer field.
    struct Field: Sendable, Equatable {
        let name: String
        let value: String
    }

    /// Every value of field `name` (lowercase), in order.
    func values(_ name: String) -> [String] {
        headers.filter { $0.name == name }.map(\.value)
    }

    /// The single value of field `name`, or nil when absent or repeated.
    func header(_ name: String) -> String? {
        let all = values(name)
        return all.count == 1 ? all[0] : nil
    }

    /// Whether the Connection header lists `token`.
    func connectionLists(_ token: String) -> Bool {
        values("connection").flatMap { $0.split(separator: ",") }
            .contains { $0.trimmingCharacters(in: .whitespaces).lowercased() == token }
    }
}
