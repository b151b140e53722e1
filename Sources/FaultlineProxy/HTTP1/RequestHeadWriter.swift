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
    /// `scratch` is the loop's memory to compose it in (one of its own without it).
    static func upstreamHead(for head: HTTPHead, framing: BodyFraming, clientIP: String, scheme: StaticString,
                             upstream: UpstreamConfig, upgrade: Bool, requestID: String? = nil,
                             dropping dropped: [String] = [], scratch: HeadScratch? = nil) -> [UInt8] {
        // Room for everything added below (Host, X-Forwarded-*, Via, the request ID, framing),
        // so the head is composed without regrowing.
        let capacity = head.headers.bytes.count * 2 + head.target.count + head.method.utf8.count
            + upstream.hostHeaderValue.utf8.count + clientIP.utf8.count + (requestID?.utf8.count ?? 0) + 256
        let scratch = scratch ?? HeadScratch()
        return scratch.compose { buffer in
            var sink = HTTP1RequestHeadSink(buffer: consume buffer, capacity: capacity)
            write(head, framing: framing, clientIP: clientIP, scheme: scheme, upstream: upstream, upgrade: upgrade,
                  requestID: requestID, dropping: dropped, into: &sink)
            let bytes = scratch.finishedHead(sink)
            buffer = sink.release()
            return bytes
        }
    }

    /// The same head as an HTTP/1.1 head value (method, target, fields), for a leg that
    /// encodes it otherwise (HTTP/2); `keepTrailersTE` adds `TE: trailers` last.
    static func upstreamHeadValue(for head: HTTPHead, framing: BodyFraming, clientIP: String, scheme: StaticString,
                                  upstream: UpstreamConfig, upgrade: Bool, requestID: String? = nil,
                                  dropping dropped: [String] = [], keepTrailersTE: Bool = false) -> HTTPHead {
        var sink = HeadValueSink()
        sink.head.headers.reserveCapacity(bytes: head.headers.bytes.count + 256, fields: head.headers.count + 8)
        write(head, framing: framing, clientIP: clientIP, scheme: scheme, upstream: upstream, upgrade: upgrade,
              requestID: requestID, dropping: dropped, into: &sink)
        if keepTrailersTE { sink.head.headers.add(name: "TE".utf8, value: "trailers".utf8) }
        return sink.head
    }

    /// Walks `head` once, handing `sink` the request line, every kept field and the ones
    /// Faultline adds: the one description of the upstream head, whatever encodes it.
    private static func write<Sink: RequestHeadSink & ~Copyable>(_ head: HTTPHead, framing: BodyFraming, clientIP: String,
                                                     scheme: StaticString, upstream: UpstreamConfig, upgrade: Bool,
                                                     requestID: String?, dropping dropped: [String], into sink: inout Sink) {
        sink.requestLine(method: head.method, target: head.target)
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
                if !dropped.isEmpty && dropped.contains(where: { ASCII.equalsIgnoringCase(name, configured: $0) }) { continue }
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
                sink.copyField(index, of: headers, raw: raw)
            }
        }
        let bytes = headers.bytes
        if upstream.hostHeader == .preserve, let clientHost {
            sink.field("Host", bytes[clientHost])
        } else {
            sink.field("Host", upstream.hostHeaderValue.utf8)
        }
        if let forwardedFor {
            var combined = Array(bytes[forwardedFor])
            combined.append(contentsOf: ", ".utf8)
            combined.append(contentsOf: clientIP.utf8)
            sink.field("X-Forwarded-For", combined)
        } else {
            sink.field("X-Forwarded-For", clientIP.utf8)
        }
        sink.field("X-Forwarded-Proto", UnsafeBufferPointer(start: scheme.utf8Start, count: scheme.utf8CodeUnitCount))
        if let clientHost {
            sink.field("X-Forwarded-Host", bytes[clientHost])
        }
        sink.via(existing: via.map { bytes[$0] }, hop: viaHop(for: head))
        if let requestID { sink.field("X-Request-ID", requestID.utf8) }
        switch framing {
        case .contentLength(let length):
            sink.field("Content-Length", decimal: length)
        case .chunked:
            let codings = head.transferCodingsBeforeChunked
            if codings.isEmpty {
                sink.field("Transfer-Encoding", "chunked".utf8)
            } else {
                sink.field("Transfer-Encoding", codings + Array(", chunked".utf8))
            }
        case .none:
            // An explicitly empty body keeps saying so: some origins answer 411 to a POST without it.
            if head.contentLength != nil { sink.field("Content-Length", decimal: 0) }
        case .untilClose:
            // A request is never delimited by close (RFC 9112 §6.3); nothing to declare.
            break
        }
        if upgrade, let upgradeIndex = headers.firstIndex(of: "upgrade") {
            sink.field("Connection", "upgrade".utf8)
            headers.bytes.withUnsafeBytes { raw in sink.copyField(upgradeIndex, of: headers, raw: raw) }
        }
        sink.end()
    }

    /// `Transfer-Encoding: chunked`, after the other codings the body still carries (`gzip, chunked`).
    static func appendChunked(codings: [UInt8], into out: inout LineBuffer) {
        guard !codings.isEmpty else {
            HTTP1Encoder.appendField("Transfer-Encoding", "chunked".utf8, into: &out)
            return
        }
        out.append("Transfer-Encoding: ")
        codings.withUnsafeBytes { out.append($0) }
        out.append(", chunked\r\n")
    }

    /// Appends `Via`, keeping earlier hops and adding this one (`hop`: the received protocol
    /// version and this proxy, `1.1 faultline`).
    static func appendVia(existing: ArraySlice<UInt8>?, hop: StaticString, into out: inout LineBuffer) {
        out.append("Via: ")
        if let existing, !existing.isEmpty {
            existing.withUnsafeBytes { out.append($0) }
            out.append(", ")
        }
        out.append(hop)
        out.append("\r\n")
    }

    /// This hop in Via, with the protocol version `head` arrived in.
    static func viaHop(for head: HTTPHead) -> StaticString {
        head.versionMinor == 0 && head.versionMajor == 1 ? "1.0 faultline" : "1.1 faultline"
    }
}
