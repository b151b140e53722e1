import FaultlineHTTP

/// The HTTP/1 bytes of a response Faultline writes itself (`OwnResponse`): pure, so the
/// encoding is unit-tested without a socket.
enum OwnResponseHTTP1 {
    /// The bytes of `response`; `close` adds `Connection: close` to a complete response.
    static func bytes(of response: OwnResponse, close: Bool) -> [UInt8] {
        if response.ending == .garbage { return response.body }
        var bytes: [UInt8] = []
        HTTP1Encoder.appendStatusLine(status: response.status, reason: [], into: &bytes)
        if let contentType = response.contentType { HTTP1Encoder.appendField("Content-Type", contentType.utf8, into: &bytes) }
        if response.ending == .brokenFraming {
            HTTP1Encoder.appendField("Transfer-Encoding", "chunked".utf8, into: &bytes)
        } else if response.declaresLength {
            HTTP1Encoder.appendField("Content-Length", decimal: UInt64(response.body.count), into: &bytes)
        }
        for field in response.fields {
            bytes.append(contentsOf: field.name.utf8)
            bytes.append(contentsOf: ": ".utf8)
            bytes.append(contentsOf: field.value.utf8)
            bytes.append(contentsOf: "\r\n".utf8)
        }
        if close && response.ending == .complete { HTTP1Encoder.appendField("Connection", "close".utf8, into: &bytes) }
        bytes.append(contentsOf: "\r\n".utf8)
        switch response.ending {
        case .complete:
            if response.sendsBody { bytes.append(contentsOf: response.body) }
        case .brokenFraming:
            // The body as one chunk, then a size line no client can parse.
            HTTP1Encoder.appendChunkHeader(size: response.body.count, into: &bytes)
            bytes.append(contentsOf: response.body)
            bytes.append(contentsOf: "\r\nzz-not-a-chunk-size\r\n".utf8)
        case .garbage:
            break
        }
        return bytes
    }
}
