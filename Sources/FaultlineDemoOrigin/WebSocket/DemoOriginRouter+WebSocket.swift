import FaultlineHTTP

extension DemoOriginRouter {
    /// RFC 6455's fixed GUID, appended to the client's key before hashing.
    static let webSocketGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// Validates a WebSocket opening handshake (RFC 6455 section 4.2.1).
    static func webSocket(_ request: DemoOriginRequest) -> DemoOriginRoute {
        let headers = request.head.headers
        let upgrade = headers.firstIndex(of: "upgrade").map { index in
            headers.withField(index) { _, value in ASCII.listContains(value, token: "websocket") }
        } ?? false
        let connection = headers.firstIndex(of: "connection").map { index in
            headers.withField(index) { _, value in ASCII.listContains(value, token: "upgrade") }
        } ?? false
        let upgradeRequired: [(name: String, value: String)] = [("Upgrade", "websocket"), ("Sec-WebSocket-Version", "13")]
        guard upgrade, connection, request.head.isUpgrade else {
            return .fixed(status: 426, reason: "Upgrade Required", contentType: "application/json",
                          body: DemoOriginJSON.body(DemoOriginJSON.object([("error", "expected a WebSocket upgrade")])),
                          extra: upgradeRequired)
        }
        guard headers.first("sec-websocket-version") == "13" else {
            return .fixed(status: 426, reason: "Upgrade Required", contentType: "application/json",
                          body: DemoOriginJSON.body(DemoOriginJSON.object([("error", "only WebSocket version 13 is supported")])),
                          extra: upgradeRequired)
        }
        guard let key = headers.first("sec-websocket-key"), DemoOriginBase64.decodedLength(key) == 16 else {
            return .error(400, "Sec-WebSocket-Key must be 16 bytes in base64")
        }
        return .webSocket(accept: acceptValue(forKey: key))
    }

    /// `Sec-WebSocket-Accept` for `key`: base64(SHA-1(key + GUID)).
    static func acceptValue(forKey key: String) -> String {
        DemoOriginBase64.encode(DemoOriginDigest.sha1(Array((key + webSocketGUID).utf8)))
    }
}
