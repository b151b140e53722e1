/// What the decoder found in the bytes of one `feed` call. A head and trailers stay in the
/// decoder (`HTTP1Decoder.head`, `HTTP1Decoder.trailers`), read in place: an event that
/// carried them would retain and release each of their buffers whenever it was copied or
/// matched, several times per message.
public enum HTTP1DecoderEvent: Sendable, Equatable {
    /// A complete head (request or response, interim responses included): `HTTP1Decoder.head`.
    case head
    /// Body bytes, as a range of the buffer passed to `feed`; valid until the next call.
    case body(Range<Int>)
    /// Trailer fields of a chunked body: `HTTP1Decoder.trailers`.
    case trailers
    /// The message is complete.
    case end
}

/// How a `feed` call ended.
public enum HTTP1DecodeStatus: Sendable, Equatable {
    /// Every byte was consumed; more are needed.
    case needMore
    /// A message ended after `consumed` bytes; call `resume()` before feeding the rest.
    case messageComplete(consumed: Int)
    /// A protocol switch: bytes from `consumed` on belong to the tunnel, not to HTTP.
    case upgraded(consumed: Int)
    /// The input is not acceptable HTTP; nothing more can be decoded.
    case failed(HTTP1DecodeError)
}

/// Why input was refused, with the HTTP status a server should answer.
public struct HTTP1DecodeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The category of failure.
    public enum Kind: Sendable, Equatable {
        /// Not valid HTTP/1 (strict parsing).
        case malformed
        /// The request line is longer than the configured limit (414).
        case requestLineTooLong
        /// The header section is larger than the configured limit (431).
        case headersTooLarge
        /// More header fields than the configured limit (431).
        case tooManyHeaders
        /// The connection ended in the middle of a message.
        case incomplete
    }

    /// The category of failure.
    public let kind: Kind
    /// What was wrong, from llhttp or from the limit that was hit.
    public let reason: String

    /// Creates an error.
    public init(kind: Kind, reason: String) {
        self.kind = kind
        self.reason = reason
    }

    /// The status a server answers a request that failed this way.
    public var status: Int {
        switch kind {
        case .malformed, .incomplete: 400
        case .requestLineTooLong: 414
        case .headersTooLarge, .tooManyHeaders: 431
        }
    }

    /// Short human-readable text.
    public var description: String { reason }
}

/// Size limits the decoder enforces while a head is arriving.
public struct HTTP1DecoderLimits: Sendable, Equatable {
    /// Longest accepted request target (bytes).
    public var maxTargetBytes: Int
    /// Largest accepted header section, names and values (bytes).
    public var maxHeaderBytes: Int
    /// Most accepted header fields.
    public var maxHeaderCount: Int

    /// Creates limits.
    public init(maxTargetBytes: Int = 8192, maxHeaderBytes: Int = 65536, maxHeaderCount: Int = 100) {
        self.maxTargetBytes = maxTargetBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.maxHeaderCount = maxHeaderCount
    }
}
