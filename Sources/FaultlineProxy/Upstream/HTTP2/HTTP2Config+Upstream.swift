import FaultlineConfig
import FaultlineHTTP2

extension HTTP2Config {
    /// The settings of an upstream HTTP/2 session: the configured windows, header list and
    /// frame size, and the flood limits (which guard against a misbehaving origin too).
    var upstreamSettings: HTTP2Settings {
        HTTP2Settings(maxConcurrentStreams: UInt32(clamping: maxConcurrentStreams),
                      initialStreamWindow: UInt32(clamping: initialWindowSize),
                      connectionWindow: UInt32(clamping: connectionWindowSize),
                      maxHeaderListSize: UInt32(clamping: maxHeaderListSize),
                      maxFrameSize: UInt32(clamping: maxFrameSize),
                      maxContinuations: maxContinuations, maxSettingsEntries: maxSettings,
                      maxOutboundAcks: maxOutboundAcks)
    }
}
