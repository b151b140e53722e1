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
    /// `/sse/{n}`.
    case events(count: Int, intervalMilliseconds: Int)
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
}
