import FaultlineHTTP
import FaultlineIO
import FaultlineConfig

/// The HTTP/1 bytes of the answers faults make: synthesized statuses, garbage and broken
/// chunk framing. When they are written is the exchange machine's decision.
extension DownstreamConnection {
    /// Writes a status fault's response (synthesized, or replacing the upstream's).
    func writeFaultResponse(_ status: StatusFault, keepAlive requested: Bool, exchange: Exchange) {
        let body: [UInt8]
        switch status.body {
        case .empty: body = []
        case .text(let text): body = Array(text.utf8)
        case .file(let path): body = exchange.snapshot.faultBodies[path] ?? []
        }
        let keepAlive = requested && !draining && !context.draining
        let isHead = exchange.machine.setup.isHeadRequest
        var bytes: [UInt8] = []
        HTTP1Encoder.appendStatusLine(status: status.code, reason: [], into: &bytes)
        let bodiless = status.code < 200 || status.code == 204 || status.code == 304
        if !bodiless {
            HTTP1Encoder.appendField("Content-Type", (status.contentType ?? "text/plain; charset=utf-8").utf8, into: &bytes)
            HTTP1Encoder.appendField("Content-Length", decimal: UInt64(body.count), into: &bytes)
        }
        for header in status.headers {
            bytes.append(contentsOf: header.name.utf8)
            bytes.append(contentsOf: ": ".utf8)
            bytes.append(contentsOf: header.value.utf8)
            bytes.append(contentsOf: "\r\n".utf8)
        }
        appendFaultMarker(exchange, into: &bytes)
        if let id = trace?.visibleRequestID { HTTP1Encoder.appendField("X-Request-ID", id.utf8, into: &bytes) }
        if !keepAlive { HTTP1Encoder.appendField("Connection", "close".utf8, into: &bytes) }
        bytes.append(contentsOf: "\r\n".utf8)
        if !bodiless && !isHead { bytes.append(contentsOf: body) }
        traceLocalResponse(status: status.code, contentType: bodiless ? nil : (status.contentType ?? "text/plain; charset=utf-8"),
                           headers: status.headers.map { ($0.name, $0.value) },
                           body: bodiless || isHead ? [] : body)
        socket.write(bytes)
    }

    /// Bytes that are not HTTP.
    func writeGarbage() {
        socket.write(Array("\u{0}\u{1}\u{2}\u{3} faultline corrupt reply: this is not HTTP \u{7f}\u{ff}\r\n".utf8))
    }

    /// A 200 head, then a chunk size line that is not one.
    func writeBadChunkFraming(exchange: Exchange) {
        var bytes: [UInt8] = []
        HTTP1Encoder.appendStatusLine(status: 200, reason: [], into: &bytes)
        HTTP1Encoder.appendField("Content-Type", "application/json".utf8, into: &bytes)
        HTTP1Encoder.appendField("Transfer-Encoding", "chunked".utf8, into: &bytes)
        appendFaultMarker(exchange, into: &bytes)
        bytes.append(contentsOf: "\r\n6\r\n{\"ok\":\r\nzz-not-a-chunk-size\r\n".utf8)
        trace?.status = 200
        socket.write(bytes)
    }

    /// `X-Faultline-Fault: route/fault, …` so a client can tell an injected failure from a real one.
    func appendFaultMarker(_ exchange: Exchange, into bytes: inout [UInt8]) {
        guard let marker = exchange.machine.setup.faultMarker else { return }
        HTTP1Encoder.appendField("X-Faultline-Fault", marker.utf8, into: &bytes)
    }
}
