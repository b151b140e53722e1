import FaultlineHTTP2

extension ConfigSnapshot {
    /// The HTTP/2 settings client connections announce and enforce, from the config's `http2`
    /// block (the loader has range-checked every value, so the conversions cannot trap).
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
