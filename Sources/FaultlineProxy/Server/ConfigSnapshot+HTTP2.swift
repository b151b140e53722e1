import FaultlineHTTP2

extension ConfigSnapshot {
    /// The HTTP/2 settings every session announces and enforces, from the config's `http2`
    /// block: client connections, and upstream connections too (windows, header list and
    /// frame size, and the flood limits, which guard against a misbehaving origin as well; the
    /// reset rate applies to server sessions only). The loader has range-checked every value.
    var http2Settings: HTTP2Settings {
        let http2 = config.http2
        return HTTP2Settings(
            maxConcurrentStreams: UInt32(clamping: http2.maxConcurrentStreams),
            initialStreamWindow: UInt32(clamping: http2.initialWindowSize),
            connectionWindow: UInt32(clamping: http2.connectionWindowSize),
            maxHeaderListSize: UInt32(clamping: http2.maxHeaderListSize),
            maxFrameSize: UInt32(clamping: http2.maxFrameSize),
            streamResetBurst: UInt64(clamping: http2.maxStreamResets.burst),
            streamResetRate: UInt64(clamping: http2.maxStreamResets.perSecond),
            maxContinuations: http2.maxContinuations,
            maxSettingsEntries: http2.maxSettings,
            maxOutboundAcks: http2.maxOutboundAcks)
    }
}
