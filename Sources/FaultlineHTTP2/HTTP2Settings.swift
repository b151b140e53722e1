/// What one HTTP/2 endpoint announces and enforces: a plain value the proxy fills from its
/// configuration (the defaults suit a proxy in front of one origin).
///
/// Flow control is manual: a stream's receive window reopens only as its consumer drains what
/// arrived (`HTTP2Session.consume(streamID:count:)`), while the connection window reopens as
/// soon as bytes arrive, so a stream whose consumer stalls holds only its own window. What one
/// connection buffers inbound is therefore at most `maxConcurrentStreams × initialStreamWindow`
/// (25 MiB with the defaults).
public struct HTTP2Settings: Sendable, Equatable {
    /// SETTINGS_MAX_CONCURRENT_STREAMS announced to the peer; nghttp2 refuses streams beyond it.
    public var maxConcurrentStreams: UInt32
    /// SETTINGS_INITIAL_WINDOW_SIZE: how many body bytes of one stream may wait for its consumer.
    /// 256 KiB keeps a fast upload near line rate on a LAN while bounding the buffering above.
    public var initialStreamWindow: UInt32
    /// The connection-level receive window (sent as a WINDOW_UPDATE on stream 0).
    public var connectionWindow: UInt32
    /// SETTINGS_MAX_HEADER_LIST_SIZE: RFC 9113 §6.5.2 size (name + value + 32 per field).
    /// nghttp2 only announces it; Faultline enforces it while the fields arrive.
    public var maxHeaderListSize: UInt32
    /// SETTINGS_MAX_FRAME_SIZE: the largest frame payload accepted (16384 to 16777215).
    public var maxFrameSize: UInt32
    /// Rapid-reset protection (CVE-2023-44487), enforced by nghttp2 on a server session: a token
    /// bucket of incoming RST_STREAM frames; an empty bucket ends the connection with GOAWAY.
    public var streamResetBurst: UInt64
    /// Tokens the reset bucket regains per second.
    public var streamResetRate: UInt64
    /// CONTINUATION-flood protection, enforced by nghttp2: frames allowed after one HEADERS.
    public var maxContinuations: Int
    /// SETTINGS-flood protection, enforced by nghttp2: entries accepted in one SETTINGS frame.
    public var maxSettingsEntries: Int
    /// PING/SETTINGS-flood protection, enforced by nghttp2: ACK frames queued for a peer that
    /// does not read before the connection is ended.
    public var maxOutboundAcks: Int

    /// The defaults: 100 streams, a 256 KiB stream window, an 8 MiB connection window, 64 KiB
    /// of header list, 16 KiB frames, and nghttp2's own flood limits.
    public init(maxConcurrentStreams: UInt32 = 100,
                initialStreamWindow: UInt32 = 256 * 1024,
                connectionWindow: UInt32 = 8 * 1024 * 1024,
                maxHeaderListSize: UInt32 = 64 * 1024,
                maxFrameSize: UInt32 = 16384,
                streamResetBurst: UInt64 = 1000,
                streamResetRate: UInt64 = 33,
                maxContinuations: Int = 8,
                maxSettingsEntries: Int = 32,
                maxOutboundAcks: Int = 1000) {
        self.maxConcurrentStreams = maxConcurrentStreams
        self.initialStreamWindow = initialStreamWindow
        self.connectionWindow = connectionWindow
        self.maxHeaderListSize = maxHeaderListSize
        self.maxFrameSize = maxFrameSize
        self.streamResetBurst = streamResetBurst
        self.streamResetRate = streamResetRate
        self.maxContinuations = maxContinuations
        self.maxSettingsEntries = maxSettingsEntries
        self.maxOutboundAcks = maxOutboundAcks
    }

    /// The largest window RFC 9113 §6.9.1 allows.
    public static let maxWindow: UInt32 = (1 << 31) - 1
    /// The frame sizes RFC 9113 §6.5.2 allows.
    public static let frameSizes: ClosedRange<UInt32> = 16384...16_777_215

    /// These settings with every value moved into the range the protocol allows.
    public var clamped: HTTP2Settings {
        var copy = self
        copy.initialStreamWindow = min(initialStreamWindow, Self.maxWindow)
        copy.connectionWindow = max(65535, min(connectionWindow, Self.maxWindow))
        copy.maxFrameSize = min(max(maxFrameSize, Self.frameSizes.lowerBound), Self.frameSizes.upperBound)
        copy.maxContinuations = max(0, maxContinuations)
        copy.maxSettingsEntries = max(1, maxSettingsEntries)
        copy.maxOutboundAcks = max(1, maxOutboundAcks)
        return copy
    }
}
