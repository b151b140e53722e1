import FaultlineHTTP

/// Builds the head Faultline sends a client from the head the upstream sent.
///
/// As for requests, the upstream's Content-Length and Transfer-Encoding are never copied: the
/// field written is the one that describes `framing`, how the proxy sends the body.
enum ResponseHeadWriter {
    /// The client response head for `head`. `framing` is how Faultline will send the body;
    /// `keepAlive` whether the client connection stays open; `upgrade` keeps Upgrade fields (101).
    static func clientHead(for head: HTTPHead, framing: BodyFraming, keepAlive: Bool, clientMinorVersion: Int,
                           upgrade: Bool) -> [UInt8] {
        var out: [UInt8] = []
        appendClientHead(for: head, framing: framing, keepAlive: keepAlive, clientMinorVersion: clientMinorVersion,
                         upgrade: upgrade, into: &out)
        return out
    }

    /// `clientHead`, appended to `out` (a connection's reused buffer). The status line and the
    /// fields are composed in `scratch` (the loop's; one of its own without it) and appended to
    /// `out` at once.
    static func appendClientHead(for head: HTTPHead, framing: BodyFraming, keepAlive: Bool, clientMinorVersion: Int,
                                 upgrade: Bool, into out: inout [UInt8], scratch: HeadScratch? = nil) {
        out.reserveCapacity(out.count + head.headers.bytes.count + head.reason.count + 192)
        (scratch ?? HeadScratch()).compose { fields in
            HTTP1Encoder.appendStatusLine(status: head.status, reason: head.reason, into: &fields)
            appendFields(of: head, framing: framing, keepAlive: keepAlive, clientMinorVersion: clientMinorVersion,
                         upgrade: upgrade, into: &fields)
            fields.withBytes { out.append(contentsOf: $0) }
        }
    }

    /// The fields of the client head and the blank line that ends it.
    private static func appendFields(of head: HTTPHead, framing: BodyFraming, keepAlive: Bool, clientMinorVersion: Int,
                                     upgrade: Bool, into fields: inout LineBuffer) {
        let hopByHop = HopByHop(head.headers)
        var via: Range<Int>?
        let headers = head.headers
        headers.bytes.withUnsafeBytes { raw in
            for index in 0..<headers.count {
                let field = headers.fields[index]
                let name = UnsafeRawBufferPointer(rebasing: raw[Int(field.start)..<Int(field.nameEnd)])
                if upgrade && ASCII.equalsIgnoringCase(name, "upgrade") {
                    fields.append(UnsafeRawBufferPointer(rebasing: raw[headers.lineRange(index)]))
                    continue
                }
                if hopByHop.drops(name) { continue }
                if name.count == 3 && ASCII.equalsIgnoringCase(name, "via") {
                    via = Int(field.valueStart)..<Int(field.valueEnd)
                    continue
                }
                if name.count == 14 && ASCII.equalsIgnoringCase(name, "content-length") { continue }
                fields.append(UnsafeRawBufferPointer(rebasing: raw[headers.lineRange(index)]))
            }
        }
        RequestHeadWriter.appendVia(existing: via.map { headers.bytes[$0] }, hop: RequestHeadWriter.viaHop(for: head), into: &fields)
        appendFraming(framing, of: head, into: &fields)
        if upgrade {
            fields.append("Connection: upgrade\r\n")
        } else if !keepAlive {
            fields.append("Connection: close\r\n")
        } else if clientMinorVersion == 0 {
            fields.append("Connection: keep-alive\r\n")
        }
        fields.append("\r\n")
    }

    /// The one framing field for `framing`. A bodiless answer (HEAD, 304) keeps the length
    /// the upstream declared for the representation (RFC 9110 §8.6), written from its parsed
    /// value; 1xx and 204 never carry one.
    private static func appendFraming(_ framing: BodyFraming, of head: HTTPHead, into out: inout LineBuffer) {
        switch framing {
        case .contentLength(let length):
            HTTP1Encoder.appendField("Content-Length", decimal: length, into: &out)
        case .chunked:
            RequestHeadWriter.appendChunked(codings: head.transferCodingsBeforeChunked, into: &out)
        case .none:
            if let declared = head.contentLength, head.status >= 200, head.status != 204 {
                HTTP1Encoder.appendField("Content-Length", decimal: declared, into: &out)
            }
        case .untilClose:
            break
        }
    }
}
