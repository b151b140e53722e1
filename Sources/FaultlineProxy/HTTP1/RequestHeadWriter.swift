import FaultlineHTTP
import FaultlineConfig

/// Builds the head Faultline sends upstream from the head a client sent: hop-by-hop fields
/// removed, X-Forwarded-For/-Proto/-Host and Via added, Host kept or rewritten.
///
/// The framing field is never copied: every Content-Length and Transfer-Encoding the client
/// sent is dropped and the one field that describes `framing` (how the proxy will send the
/// body) is written, so the bytes that follow the head are always exactly the body.
enum RequestHeadWriter {
    /// The upstream request head bytes for `head`, whose body is forwarded with `framing`.
    /// With `requestID` the client's X-Request-ID (if any) is replaced by it.
    static func upstreamHead(for head: HTTPHead, framing: BodyFraming, clientIP: String, scheme: StaticString,
                             upstream: UpstreamConfig, upgrade: Bool, requestID: String? = nil,
                             dropping dropped: [String] = []) -> [UInt8] {
        var out: [UInt8] = []
        // Room for everything added below (Host, X-Forwarded-*, Via, the request ID, framing),
        // so the head is built in one allocation rather than regrown on the way.
        out.reserveCapacity(head.headers.bytes.count * 2 + head.target.count + head.method.utf8.count
                            + upstream.hostHeaderValue.utf8.count + clientIP.utf8.count + (requestID?.utf8.count ?? 0) + 256)
        HTTP1Encoder.appendRequestLine(method: head.method, target: head.target, into: &out)
        let hopByHop = HopByHop(head.headers)
        var clientHost: Range<Int>?
        var forwardedFor: Range<Int>?
        var via: Range<Int>?
        let headers = head.headers
        headers.bytes.withUnsafeBytes { raw in
            for index in 0..<headers.count {
                let field = headers.fields[index]
                let name = UnsafeRawBufferPointer(rebasing: raw[Int(field.start)..<Int(field.nameEnd)])
                let value = Int(field.valueStart)..<Int(field.valueEnd)
                if hopByHop.drops(name) { continue }
                if !dropped.isEmpty && dropped.contains(where: { ASCII.equalsIgnoringCase(name, $0) }) { continue }
                switch name.count {
                case 4 where ASCII.equalsIgnoringCase(name, "host"):
                    if clientHost == nil { clientHost = value }
                    continue
                case 3 where ASCII.equalsIgnoringCase(name, "via"):
                    via = value
                    continue
                case 15 where ASCII.equalsIgnoringCase(name, "x-forwarded-for"):
                    forwardedFor = value
                    continue
                case 16 where ASCII.equalsIgnoringCase(name, "x-forwarded-host"),
                     17 where ASCII.equalsIgnoringCase(name, "x-forwarded-proto"):
                    continue
                case 14 where ASCII.equalsIgnoringCase(name, "content-length"):
                    continue
                case 12 where requestID != nil && ASCII.equalsIgnoringCase(name, "x-request-id"):
                    continue
                default:
                    break
                }
                out.append(contentsOf: raw[headers.lineRange(index)])
            }
        }
        let bytes = headers.bytes
        if upstream.hostHeader == .preserve, let clientHost {
            HTTP1Encoder.appendField("Host", bytes[clientHost], into: &out)
        } else {
            HTTP1Encoder.appendField("Host", upstream.hostHeaderValue.utf8, into: &out)
        }
        if let forwardedFor {
            var combined = Array(bytes[forwardedFor])
            combined.append(contentsOf: ", ".utf8)
            combined.append(contentsOf: clientIP.utf8)
            HTTP1Encoder.appendField("X-Forwarded-For", combined, into: &out)
        } else {
            HTTP1Encoder.appendField("X-Forwarded-For", clientIP.utf8, into: &out)
        }
        HTTP1Encoder.appendField("X-Forwarded-Proto", UnsafeBufferPointer(start: scheme.utf8Start, count: scheme.utf8CodeUnitCount), into: &out)
        if let clientHost {
            HTTP1Encoder.appendField("X-Forwarded-Host", bytes[clientHost], into: &out)
        }
        appendVia(existing: via.map { bytes[$0] }, version: head, into: &out)
        if let requestID { HTTP1Encoder.appendField("X-Request-ID", requestID.utf8, into: &out) }
        switch framing {
        case .contentLength(let length):
            HTTP1Encoder.appendField("Content-Length", decimal: length, into: &out)
        case .chunked:
            appendChunked(codings: head.transferCodingsBeforeChunked, into: &out)
        case .none:
            // An explicitly empty body keeps saying so: some origins answer 411 to a POST without it.
            if head.contentLength != nil { HTTP1Encoder.appendField("Content-Length", decimal: 0, into: &out) }
        case .untilClose:
            // A request is never delimited by close (RFC 9112 §6.3); nothing to declare.
            break
        }
        if upgrade, let upgradeIndex = headers.firstIndex(of: "upgrade") {
            HTTP1Encoder.appendField("Connection", "upgrade".utf8, into: &out)
            headers.bytes.withUnsafeBytes { raw in out.append(contentsOf: raw[headers.lineRange(upgradeIndex)]) }
        }
        out.append(13)
        out.append(10)
        return out
    }

    /// `Transfer-Encoding: chunked`, after the other codings the body still carries (`gzip, chunked`).
    static func appendChunked(codings: [UInt8], into out: inout [UInt8]) {
        guard !codings.isEmpty else {
            HTTP1Encoder.appendField("Transfer-Encoding", "chunked".utf8, into: &out)
            return
        }
        HTTP1Encoder.appendField("Transfer-Encoding", codings + Array(", chunked".utf8), into: &out)
    }

    /// Appends `Via`, keeping earlier hops and adding this one with the received protocol version.
    static func appendVia(existing: ArraySlice<UInt8>?, version head: HTTPHead, into out: inout [UInt8]) {
        // Written in place: a value array of its own cost an allocation per message.
        out.append(contentsOf: "Via: ".utf8)
        if let existing, !existing.isEmpty {
            out.append(contentsOf: existing)
            out.append(contentsOf: ", ".utf8)
        }
        out.append(contentsOf: head.versionMinor == 0 && head.versionMajor == 1 ? "1.0 faultline\r\n".utf8 : "1.1 faultline\r\n".utf8)
    }
}
