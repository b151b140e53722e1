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

    // No stored property has a default value: with defaults, the collector's `makeBlock` built
    // each block and then copied it into its result, retaining and releasing its buffers.

    /// What the block is on its stream.
    public var kind: Kind
    /// `:method`.
    public var method: [UInt8]? { pseudoValue(pseudo.method) }
    /// `:scheme`.
    public var scheme: [UInt8]? { pseudoValue(pseudo.scheme) }
    /// `:authority`.
    public var authority: [UInt8]? { pseudoValue(pseudo.authority) }
    /// `:path`.
    public var path: [UInt8]? { pseudo.path == nil ? nil : pathBytes }
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
    public private(set) var hostFromAuthority: Bool
    /// Whether END_STREAM came with this block: no body follows.
    public var endsStream: Bool

    /// The request pseudo-header values back to back, but for `:path`: one allocation for all
    /// of them, where an array each cost four, and a block is moved into an event and out of it
    /// again.
    private(set) var pseudoBytes: [UInt8]
    /// `:path`, apart: the request head's target is this array as it is, not a copy.
    private(set) var pathBytes: [UInt8]
    /// Where each pseudo-header value is in `pseudoBytes` (`:path`: in `pathBytes`).
    private(set) var pseudo: PseudoRanges

    /// An empty block.
    public init(kind: Kind = .request) {
        self.init(kind: kind, fields: HTTPHeaders(), hostFromAuthority: false, endsStream: false, status: nil,
                  pseudoBytes: [], pathBytes: [], pseudo: PseudoRanges())
    }

    /// A block as the session's collector made it (`HTTP2HeaderBlockCollector.makeBlock`).
    init(kind: Kind, fields: HTTPHeaders, hostFromAuthority: Bool, endsStream: Bool, status: Int?,
         pseudoBytes: [UInt8], pathBytes: [UInt8], pseudo: PseudoRanges) {
        self.kind = kind
        self.fields = fields
        self.hostFromAuthority = hostFromAuthority
        self.endsStream = endsStream
        self.status = status
        self.pseudoBytes = pseudoBytes
        self.pathBytes = pathBytes
        self.pseudo = pseudo
    }

    /// The bytes of a pseudo-header value, when it came.
    private func pseudoValue(_ range: Range<Int>?) -> [UInt8]? {
        range.map { Array(pseudoBytes[$0]) }
    }

    /// Where the request pseudo-header values are in `pseudoBytes` (`path`: all of `pathBytes`).
    struct PseudoRanges: Sendable {
        var method: Range<Int>?
        var scheme: Range<Int>?
        var authority: Range<Int>?
        var path: Range<Int>?
        var extendedProtocol: Range<Int>?
    }
}
