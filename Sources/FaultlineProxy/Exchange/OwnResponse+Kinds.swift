import FaultlineConfig

/// Every response Faultline writes itself, built from what the exchange decided.
extension OwnResponse {
    /// A refusal or a gateway error: plain text (or JSON) ending in a newline, `Server:
    /// faultline` and the request id, so a client (or a bug report) can point at the record.
    static func local(_ response: LocalResponse, requestID: String?) -> OwnResponse {
        let body = Array((response.message + "\n").utf8)
        var fields = [(name: "Server", value: "faultline")]
        if let requestID { fields.append((name: "X-Request-ID", value: requestID)) }
        if response.asksProxyCredentials { fields.append((name: "Proxy-Authenticate", value: "Basic realm=\"faultline\"")) }
        return OwnResponse(status: response.status, contentType: response.contentType, declaresLength: true, fields: fields,
                           body: body, sendsBody: response.includeBody, keepAlive: response.keepAlive, ending: .complete,
                           record: .local(contentType: response.contentType, headers: [],
                                          body: response.includeBody ? body : []))
    }

    /// A status fault's response (synthesized, or replacing the upstream's): its body from
    /// the fault (a file's bytes read when the snapshot compiled), text/plain unless it says
    /// otherwise, no body or length for 1xx, 204 and 304, its own fields, the fault marker
    /// and the request id.
    static func fault(_ status: StatusFault, keepAlive: Bool, exchange: Exchange, requestID: String?) -> OwnResponse {
        let body: [UInt8]
        switch status.body {
        case .empty: body = []
        case .text(let text): body = Array(text.utf8)
        case .file(let path): body = exchange.snapshot.faultBodies[path] ?? []
        }
        let bodiless = status.code < 200 || status.code == 204 || status.code == 304
        let sendsBody = !bodiless && !exchange.machine.setup.isHeadRequest
        let contentType = bodiless ? nil : status.contentType ?? "text/plain; charset=utf-8"
        let headers = status.headers.map { (name: $0.name, value: $0.value) }
        var fields = headers
        if let marker = exchange.machine.setup.faultMarker { fields.append((name: "X-Faultline-Fault", value: marker)) }
        if let requestID { fields.append((name: "X-Request-ID", value: requestID)) }
        return OwnResponse(status: status.code, contentType: contentType, declaresLength: !bodiless, fields: fields,
                           body: body, sendsBody: sendsBody, keepAlive: keepAlive, ending: .complete,
                           record: .local(contentType: contentType, headers: headers, body: sendsBody ? body : []))
    }

    /// `corrupt` (reply): not HTTP.
    static let garbage = OwnResponse(
        status: 0, contentType: "application/octet-stream", declaresLength: false, fields: [],
        body: Array("\u{0}\u{1}\u{2}\u{3} faultline corrupt reply: this is not HTTP \u{7f}\u{ff}\r\n".utf8),
        sendsBody: true, keepAlive: false, ending: .garbage, record: nil)

    /// `corrupt` (chunked): a 200 whose JSON body breaks off in its framing.
    static func badChunkFraming(marker: String?) -> OwnResponse {
        OwnResponse(status: 200, contentType: "application/json", declaresLength: false,
                    fields: marker.map { [(name: "X-Faultline-Fault", value: $0)] } ?? [],
                    body: Array("{\"ok\":".utf8), sendsBody: true, keepAlive: false, ending: .brokenFraming, record: .status)
    }
}
