import FaultlineHTTP
import FaultlineHTTP2

/// The HTTP/2 response head Faultline sends a client for the head an HTTP/1 upstream sent: its
/// fields lowercased without the connection-specific ones, Via naming this hop, and the length
/// from the framing the exchange computed (never the upstream's field as such).
enum HTTP2ResponseFields {
    /// `:status` and the fields for `head`; `marker` adds X-Faultline-Fault.
    static func forUpstreamHead(_ head: HTTPHead, framing: BodyFraming, marker: String?) -> HTTPHeaders {
        var out = head.http2ResponseFields(skipping: ["content-length", "via"])
        var via: [UInt8] = []
        for index in 0..<head.headers.count {
            head.headers.withField(index) { name, value in
                guard ASCII.equalsIgnoringCase(name, "via") else { return }
                via.append(contentsOf: value)
                via.append(contentsOf: ", ".utf8)
            }
        }
        via.append(contentsOf: "1.1 faultline".utf8)
        out.add(name: "via".utf8, value: via)
        switch framing {
        case .contentLength(let length):
            out.add(name: "content-length", value: String(length))
        case .none:
            // A bodiless answer (HEAD, 304) keeps the length declared for the representation.
            if let declared = head.contentLength, head.status >= 200, head.status != 204 {
                out.add(name: "content-length", value: String(declared))
            }
        case .chunked, .untilClose:
            break
        }
        if let marker { out.add(name: "x-faultline-fault", value: marker) }
        return out
    }
}
