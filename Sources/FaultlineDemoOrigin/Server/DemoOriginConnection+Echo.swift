import FaultlineIO

extension DemoOriginConnection {
    /// `/echo?raw=1`: the response head goes out at once and body pieces follow as they arrive.
    func startEchoRaw() {
        guard let request = exchange?.request else { return }
        let framing: DemoOriginFraming
        if let length = request.head.contentLength {
            framing = .length(length)
        } else if request.head.isChunked {
            framing = request.isHTTP10 ? .untilClose : .chunked
        } else {
            framing = .length(0)
        }
        let contentType = request.head.headers.first("content-type") ?? "application/octet-stream"
        _ = startStreaming(contentType: contentType, framing: framing)
    }

    /// `/echo`: what arrived, with the body's size and SHA-256.
    func respondEcho(_ exchange: DemoOriginExchange) {
        let request = exchange.request
        let arguments = DemoOriginQuery.parameters(request.query).map { (key: $0.name, value: $0.value) }
        let document = """
            {"method": \(DemoOriginJSON.quoted(request.method)), "path": \(DemoOriginJSON.quoted(request.path)), \
            "query": \(DemoOriginJSON.quoted(String(request.query))), "args": \(DemoOriginJSON.object(arguments)), \
            "headers": \(request.headersJSON), "body_bytes": \(exchange.bodyBytes), \
            "body_sha256": \(DemoOriginJSON.quoted(exchange.digest?.finishHex() ?? ""))}
            """
        respond(status: 200, contentType: "application/json", body: DemoOriginJSON.body(document))
    }
}
