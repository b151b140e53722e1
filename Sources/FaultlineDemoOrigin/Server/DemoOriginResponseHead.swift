import FaultlineHTTP

/// Writes the status line and fields of a demo response; no I/O.
enum DemoOriginResponseHead {
    /// Appends a complete head (through the blank line) to `out`.
    static func encode(status: Int, reason: String = "", contentType: String?, framing: DemoOriginFraming,
                       keepAlive: Bool, http10: Bool, extra: [(name: String, value: String)] = [],
                       into out: inout [UInt8]) {
        out.reserveCapacity(out.count + 160)
        HTTP1Encoder.appendStatusLine(status: status, reason: Array(reason.utf8), into: &out)
        HTTP1Encoder.appendField("Server", "faultline-demo-origin".utf8, into: &out)
        if let contentType { HTTP1Encoder.appendField("Content-Type", contentType.utf8, into: &out) }
        switch framing {
        case .none, .untilClose:
            break
        case .length(let length):
            HTTP1Encoder.appendField("Content-Length", decimal: length, into: &out)
        case .chunked:
            HTTP1Encoder.appendField("Transfer-Encoding", "chunked".utf8, into: &out)
        }
        for field in extra {
            out.append(contentsOf: field.name.utf8)
            out.append(contentsOf: ": ".utf8)
            out.append(contentsOf: field.value.utf8)
            out.append(contentsOf: "\r\n".utf8)
        }
        if !keepAlive || framing == .untilClose {
            HTTP1Encoder.appendField("Connection", "close".utf8, into: &out)
        } else if http10 {
            HTTP1Encoder.appendField("Connection", "keep-alive".utf8, into: &out)
        }
        out.append(contentsOf: "\r\n".utf8)
    }
}
