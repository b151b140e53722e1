import FaultlineHTTP
import FaultlineHTTP2

/// The HTTP/2 response head Faultline sends a client for the head an HTTP/1 upstream sent: its
/// fields lowercased without the connection-specific ones, Via naming this hop, and the length
/// from the framing the exchange computed (never the upstream's field as such).
enum HTTP2ResponseFields {
    /// The fields this type writes itself.
    private static let skipped: [StaticString] = ["content-length", "via"]

    /// The room `write(_:framing:marker:viaBytes:into:)` needs at most: bytes of field lines and
    /// fields; and the bytes of the upstream's Via values, which it joins.
    static func room(for head: HTTPHead, marker: String?) -> (bytes: Int, fields: Int, viaBytes: Int) {
        let viaBytes = viaBytes(of: head.headers)
        // Via, Content-Length (20 digits at most) and the marker, each with its name and separators.
        let extra = 24 + viaBytes + hop.utf8CodeUnitCount + 40 + (marker.map { $0.utf8.count + 24 } ?? 0)
        return (head.http2ResponseFieldBytes + extra, head.headers.count + 4, viaBytes)
    }

    /// Writes `:status` and the fields for `head`; `marker` adds X-Faultline-Fault. One pass
    /// into room sized by `room(for:marker:)`, which gives `viaBytes` too: the field lines it
    /// keeps, the Via line (the upstream's Via values joined, then this hop), the length and
    /// the marker.
    static func write(_ head: HTTPHead, framing: BodyFraming, marker: String?, viaBytes: Int, into out: inout HTTPFieldsWriter) {
        let length: UInt64? = switch framing {
        case .contentLength(let length): length
        // A bodiless answer (HEAD, 304) keeps the length declared for the representation.
        case .none: head.status >= 200 && head.status != 204 ? head.contentLength : nil
        case .chunked, .untilClose: nil
        }
        head.writeHTTP2ResponseFields(into: &out, skipping: skipped)
        if viaBytes == 0 {
            out.add(name: "via", value: hop)
        } else {
            addVia(joining: head.headers, byteCount: viaBytes, to: &out)
        }
        if let length { out.add(name: raw("content-length"), decimal: length) }
        var marker = marker
        marker?.withUTF8 { out.add(name: raw("x-faultline-fault"), value: UnsafeRawBufferPointer($0)) }
    }

    /// The bytes of the upstream's Via values, with a separator each.
    private static func viaBytes(of headers: HTTPHeaders) -> Int {
        var total = 0
        headers.forEachField { _, name, value in
            if name.count == 3, ASCII.equalsIgnoringCase(name, "via") { total += value.count + 2 }
            return true
        }
        return total
    }

    /// This hop in Via.
    private static let hop: StaticString = "1.1 faultline"

    /// One Via field: the upstream's Via values in order, then this hop (`byteCount`: the
    /// values' bytes with a separator each).
    private static func addVia(joining headers: HTTPHeaders, byteCount: Int, to out: inout HTTPFieldsWriter) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: byteCount + hop.utf8CodeUnitCount) { via in
            var written = 0
            headers.forEachField { _, name, value in
                guard name.count == 3, ASCII.equalsIgnoringCase(name, "via") else { return true }
                for byte in value {
                    via[written] = byte
                    written += 1
                }
                via[written] = UInt8(ascii: ",")
                via[written + 1] = UInt8(ascii: " ")
                written += 2
                return true
            }
            for byte in UnsafeRawBufferPointer(start: hop.utf8Start, count: hop.utf8CodeUnitCount) {
                via[written] = byte
                written += 1
            }
            out.add(name: raw("via"), value: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(via)[..<written]))
        }
    }

    /// The bytes of a literal.
    private static func raw(_ text: StaticString) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
    }
}
