public import FaultlineHTTP

/// One decoded header block (HEADERS plus its CONTINUATION frames), already checked by nghttp2's
/// HTTP messaging rules: pseudo-header fields are split out, regular fields kept in order.
public struct HTTP2HeaderBlock: Sendable {
    /// What the block is on its stream.
    public enum Kind: Sendable, Equatable {
        /// A request's head (server role).
        case request
        /// A 1xx response before the final one (client role).
        case informational
        /// The final response head (client role).
        case response
        /// Trailer fields after the body (both roles).
        case trailers
    }

    /// What the block is on its stream.
    public var kind: Kind
    /// `:method`.
    public var method: [UInt8]? { pseudoValue(pseudo.method) }
    /// `:scheme`.
    public var scheme: [UInt8]? { pseudoValue(pseudo.scheme) }
    /// `:authority`.
    public var authority: [UInt8]? { pseudoValue(pseudo.authority) }
    /// `:path`.
    public var path: [UInt8]? { pseudoValue(pseudo.path) }
    /// `:protocol` (extended CONNECT, RFC 8441).
    public var extendedProtocol: [UInt8]? { pseudoValue(pseudo.extendedProtocol) }
    /// `:status` as a number (responses).
    public var status: Int?
    /// The regular fields in arrival order (lowercase names, as HTTP/2 requires). With
    /// `:authority`, a `host` field carrying its value comes first (`hostFromAuthority`): the
    /// field an HTTP/1 head needs (RFC 9113 §8.3.1), written where the request's fields are
    /// gathered so that a request head takes them as they are.
    public var fields: HTTPHeaders
    /// Whether `fields` starts with the `host` field made from `:authority`.
    public private(set) var hostFromAuthority = false
    /// Whether END_STREAM came with this block: no body follows.
    public var endsStream: Bool

    /// The request pseudo-header values back to back: one allocation for all of them, where an
    /// array each cost four, and a block is copied into an event and out of it again.
    private(set) var pseudoBytes: [UInt8] = []
    /// Where each pseudo-header value is in `pseudoBytes`.
    private(set) var pseudo = PseudoRanges()

    /// An empty block; the session fills it while the fields arrive.
    public init(kind: Kind = .request) {
        self.kind = kind
        fields = HTTPHeaders()
        endsStream = false
    }

    /// Records one field as nghttp2 hands it over; pseudo-header fields by name, the rest in order.
    mutating func add(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
        guard name.first == UInt8(ascii: ":") else {
            fields.add(name: name, value: value)
            return
        }
        // The length picks the candidates: one or two comparisons instead of up to six.
        if name.count == 7 && ASCII.equalsIgnoringCase(name, ":method") {
            pseudo.method = appendPseudo(value)
        } else if name.count == 7 && ASCII.equalsIgnoringCase(name, ":scheme") {
            pseudo.scheme = appendPseudo(value)
        } else if name.count == 10 && ASCII.equalsIgnoringCase(name, ":authority") {
            pseudo.authority = appendPseudo(value)
            // Pseudo-header fields precede the regular ones (nghttp2 refuses a block where they
            // do not), so this is the first field; a second :authority is refused the same way.
            if !hostFromAuthority && fields.count == 0 {
                fields.add(name: HTTPHead.raw("host"), value: value)
                hostFromAuthority = true
            }
        } else if name.count == 5 && ASCII.equalsIgnoringCase(name, ":path") {
            pseudo.path = appendPseudo(value)
        } else if name.count == 9 && ASCII.equalsIgnoringCase(name, ":protocol") {
            pseudo.extendedProtocol = appendPseudo(value)
        } else if ASCII.equalsIgnoringCase(name, ":status") {
            // nghttp2 checks that :status is three digits; checked again before the arithmetic.
            let digits = value.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
            status = digits && value.count == 3 ? value.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) } : nil
        }
    }

    /// Appends a pseudo-header value and returns where it is.
    private mutating func appendPseudo(_ value: UnsafeRawBufferPointer) -> Range<Int> {
        // A request's four values fit here at once; a long path grows it once.
        if pseudoBytes.capacity == 0 { pseudoBytes.reserveCapacity(max(128, value.count + 64)) }
        let start = pseudoBytes.count
        pseudoBytes.append(contentsOf: value)
        return start..<pseudoBytes.count
    }

    /// The bytes of a pseudo-header value, when it came.
    private func pseudoValue(_ range: Range<Int>?) -> [UInt8]? {
        range.map { Array(pseudoBytes[$0]) }
    }

    /// Where the request pseudo-header values are in `pseudoBytes`.
    struct PseudoRanges: Sendable {
        var method: Range<Int>?
        var scheme: Range<Int>?
        var authority: Range<Int>?
        var path: Range<Int>?
        var extendedProtocol: Range<Int>?
    }
}
