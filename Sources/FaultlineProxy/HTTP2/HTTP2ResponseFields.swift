import FaultlineHTTP
import FaultlineHTTP2

/// The HTTP/2 response head Faultline sends a client for the head an HTTP/1 upstream sent: its
/// fields lowercased without the connection-specific ones, Via naming this hop, and the length
/// from the framing the exchange computed (never the upstream's field as such).
enum HTTP2ResponseFields {
    /// The fields this type writes itself.
    private static let skipped: [StaticString] = ["content-length", "via"]

    /// `:status` and the fields for `head`; `marker` adds X-Faultline-Fault.
    static func forUpstreamHead(_ head: HTTPHead, framing: BodyFraming, marker: String?) -> HTTPHeaders {
        var out = head.http2ResponseFields(skipping: skipped)
        var via: [UInt8] = []
        for index in 0..<head.headers.count {
            head.headers.withField(index) { name, value in
                guard name.count == 3, ASCII.equalsIgnoringCase(name, "via") else { return }
                via.append(contentsOf: value)
                via.append(contentsOf: ", ".utf8)
            }
        }
        via.append(contentsOf: "1.1 faultline".utf8)
        via.withUnsafeBytes { out.add(name: raw("via"), value: $0) }
        switch framing {
        case .contentLength(let length):
            addLength(length, to: &out)
        case .none:
            // A bodiless answer (HEAD, 304) keeps the length declared for the representation.
            if let declared = head.contentLength, head.status >= 200, head.status != 204 {
                addLength(declared, to: &out)
            }
        case .chunked, .untilClose:
            break
        }
        if let marker { out.add(name: "x-faultline-fault", value: marker) }
        return out
    }

    /// `content-length` with `length` in decimal, through the concrete (non-generic) add.
    private static func addLength(_ length: UInt64, to out: inout HTTPHeaders) {
        var digits = String(length)
        digits.withUTF8 { out.add(name: raw("content-length"), value: UnsafeRawBufferPointer($0)) }
    }

    /// The bytes of a literal.
    private static func raw(_ text: StaticString) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
    }
}
