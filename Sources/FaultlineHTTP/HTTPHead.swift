/// A request or response head as decoded: start line parts plus header fields.
public struct HTTPHead: Sendable {
    /// The request method as sent (requests only).
    public var method: String
    /// The request target as sent, e.g. `/users?q=a` (requests only).
    public var target: [UInt8]
    /// The status code (responses only).
    public var status: Int
    /// The reason phrase as sent (responses only).
    public var reason: [UInt8]
    /// HTTP major version.
    public var versionMajor: Int
    /// HTTP minor version.
    public var versionMinor: Int
    /// Header fields in arrival order.
    public var headers: HTTPHeaders
    /// Whether the connection stays open after this message, per version and Connection.
    public var keepAlive: Bool
    /// Whether the body is chunked.
    public var isChunked: Bool
    /// The declared Content-Length, if any.
    public var contentLength: UInt64?
    /// Whether the message asks for (request) or accepts (101 response) a protocol switch.
    public var isUpgrade: Bool

    /// An empty head, filled in by the decoder or by code that synthesizes a message.
    public init() {
        method = ""
        target = []
        status = 0
        reason = []
        versionMajor = 1
        versionMinor = 1
        headers = HTTPHeaders()
        keepAlive = true
        isChunked = false
        contentLength = nil
        isUpgrade = false
    }

    /// The target's path, without the query.
    public var path: ArraySlice<UInt8> {
        if let question = target.firstIndex(of: UInt8(ascii: "?")) {
            return target[..<question]
        }
        return target[...]
    }

    /// The target as a String (tests and logs).
    public var targetString: String { String(decoding: target, as: UTF8.self) }

    /// Whether this is a 1xx interim response other than 101.
    public var isInterim: Bool { status >= 100 && status < 200 && status != 101 }
}
