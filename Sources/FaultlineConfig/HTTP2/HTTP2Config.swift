/// HTTP/2 settings and flood limits, for every HTTP/2 connection (client side, and
/// upstream connections where a value applies to both).
public struct HTTP2Config: Sendable, Equatable {
    /// SETTINGS_MAX_CONCURRENT_STREAMS advertised to clients.
    public let maxConcurrentStreams: Int
    /// SETTINGS_INITIAL_WINDOW_SIZE: each stream's receive window, in bytes (at most 2^31-1).
    public let initialWindowSize: Int
    /// The connection's receive window, in bytes (at most 2^31-1).
    public let connectionWindowSize: Int
    /// SETTINGS_MAX_HEADER_LIST_SIZE: the largest header list accepted, in bytes.
    public let maxHeaderListSize: Int
    /// SETTINGS_MAX_FRAME_SIZE: the largest frame payload accepted (16384...16777215).
    public let maxFrameSize: Int
    /// The rapid-reset limit on client RST_STREAM frames.
    public let maxStreamResets: HTTP2ResetRateLimit
    /// Most CONTINUATION frames accepted after one HEADERS frame.
    public let maxContinuations: Int
    /// Most settings accepted in one SETTINGS frame.
    public let maxSettings: Int
    /// Most queued SETTINGS and PING acknowledgements before the connection is closed.
    public let maxOutboundAcks: Int
    /// A client request whose content-length is at most this many bytes is held until its
    /// stream ends before its upstream exchange starts; 0 streams every request as it arrives.
    public let maxBufferedRequestBody: Int

    /// The largest window RFC 9113 allows.
    public static let maxWindowSize = 2_147_483_647
    /// The frame sizes RFC 9113 allows.
    public static let frameSizeRange = 16384...16_777_215
    /// The values `max_buffered_request_body` may take (0 to 16 MiB).
    public static let bufferedRequestBodyRange = 0...16_777_216

    /// Creates settings; the defaults are those of the config format.
    public init(
        maxConcurrentStreams: Int = 100,
        initialWindowSize: Int = 262_144,
        connectionWindowSize: Int = 8_388_608,
        maxHeaderListSize: Int = 65536,
        maxFrameSize: Int = 16384,
        maxStreamResets: HTTP2ResetRateLimit = HTTP2ResetRateLimit(),
        maxContinuations: Int = 8,
        maxSettings: Int = 32,
        maxOutboundAcks: Int = 1000,
        maxBufferedRequestBody: Int = 65536
    ) {
        self.maxConcurrentStreams = maxConcurrentStreams
        self.initialWindowSize = initialWindowSize
        self.connectionWindowSize = connectionWindowSize
        self.maxHeaderListSize = maxHeaderListSize
        self.maxFrameSize = maxFrameSize
        self.maxStreamResets = maxStreamResets
        self.maxContinuations = maxContinuations
        self.maxSettings = maxSettings
        self.maxOutboundAcks = maxOutboundAcks
        self.maxBufferedRequestBody = maxBufferedRequestBody
    }
}
