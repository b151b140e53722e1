/// What the demo origin will answer to one request, decided from its head alone.
enum DemoOriginRoute {
    /// A complete answer known now.
    case fixed(status: Int, reason: String, contentType: String?, body: [UInt8], extra: [(name: String, value: String)])
    /// `/64`, served from a precomputed response when it can be.
    case sixtyFour
    /// `/delay/{ms}`.
    case delay(milliseconds: Int)
    /// `/bytes/{n}` with its framing.
    case bytes(count: UInt64, framing: DemoOriginFraming)
    /// `/stream/{n}`.
    case stream(count: Int)
    /// `/sse/{n}`: events `first..<count` (later than 0 when the client resumes with `Last-Event-ID`).
    case events(count: Int, first: Int, intervalMilliseconds: Int)
    /// `POST /token`: a fresh token.
    case token
    /// `/echo`: a JSON summary once the body has been hashed.
    case echo
    /// `/echo?raw=1`: the body streamed back.
    case echoRaw
    /// `/ws` with a valid handshake: the `Sec-WebSocket-Accept` value.
    case webSocket(accept: String)

    /// A JSON error answer.
    static func error(_ status: Int, _ message: String, extra: [(name: String, value: String)] = [],
                      fields: [(key: String, value: String)] = []) -> DemoOriginRoute {
        let document = DemoOriginJSON.object([("error", message)] + fields)
        return .fixed(status: status, reason: "", contentType: "application/json", body: DemoOriginJSON.body(document), extra: extra)
    }

    /// A 200 JSON answer.
    static func json(_ document: String) -> DemoOriginRoute {
        .fixed(status: 200, reason: "", contentType: "application/json", body: DemoOriginJSON.body(document), extra: [])
    }

    /// A 200 JSON answer with entity tag `tag`, or a bodiless 304 when the request's
    /// `If-None-Match` names it. `no-cache` lets clients store it but makes them revalidate.
    static func tagged(_ body: [UInt8], tag: String, for request: DemoOriginRequest) -> DemoOriginRoute {
        let fields = [(name: "ETag", value: tag), (name: "Cache-Control", value: "no-cache")]
        if let condition = request.head.headers.first("if-none-match"), DemoOriginETag.matches(ifNoneMatch: condition, tag: tag) {
            return .fixed(status: 304, reason: "", contentType: nil, body: [], extra: fields)
        }
        return .fixed(status: 200, reason: "", contentType: "application/json", body: body, extra: fields)
    }
}
