/// A status answer: synthesized without calling the upstream, or replacing the
/// upstream's answer once it has been received.
public struct StatusFault: Sendable, Equatable {
    /// Where the body comes from.
    public enum Body: Sendable, Equatable {
        /// No body (Content-Length: 0).
        case empty
        /// This text, sent as UTF-8.
        case text(String)
        /// The contents of this file (absolute, or as written when the config was parsed
        /// without a base directory). Checked readable at load; the proxy reads it when it
        /// builds its snapshot, never per request.
        case file(String)
    }

    /// The status code, 100...599. A `sequence` step may replace it per request.
    public let code: Int
    /// Extra header fields, sorted by name.
    public let headers: [FaultHeader]
    /// The body.
    public let body: Body
    /// Content-Type of the body; nil lets the proxy choose (text/plain for a body).
    public let contentType: String?
    /// false: answer without contacting the upstream; true: forward, then replace the answer.
    public let upstream: Bool

    /// Creates a status fault.
    public init(code: Int, headers: [FaultHeader] = [], body: Body = .empty, contentType: String? = nil, upstream: Bool = false) {
        self.code = code
        self.headers = headers
        self.body = body
        self.contentType = contentType
        self.upstream = upstream
    }

    /// The same fault answering with `code` instead (a sequence step).
    public func with(code: Int) -> StatusFault {
        StatusFault(code: code, headers: headers, body: body, contentType: contentType, upstream: upstream)
    }
}
