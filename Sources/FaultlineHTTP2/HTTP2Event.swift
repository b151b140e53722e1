public import FaultlineHTTP

/// What one call into an `HTTP2Session` produced, in order. Stream ids are the peer's or ours
/// as nghttp2 reports them (positive, at most 2^31-1).
public enum HTTP2Event: Sendable {
    /// A complete header block: a request, a response (1xx or final) or trailers.
    case headers(streamID: Int32, HTTP2HeaderBlock)
    /// A header block Faultline refused before handing it out (the stream is still open; the
    /// owner answers or resets it).
    case refused(streamID: Int32, HTTP2Refusal)
    /// Body bytes of a stream. Their stream window reopens only through `consume`.
    case data(streamID: Int32, [UInt8])
    /// The peer sent END_STREAM: no more headers or data on this stream.
    case endStream(streamID: Int32)
    /// The peer reset a stream.
    case resetReceived(streamID: Int32, HTTP2ErrorCode)
    /// A stream closed for good (both directions done, or reset either way); `errorCode` is
    /// NO_ERROR for a normal end.
    case streamClosed(streamID: Int32, errorCode: HTTP2ErrorCode)
    /// The peer sent GOAWAY: streams above `lastStreamID` were not and will not be processed.
    case goAwayReceived(lastStreamID: Int32, errorCode: HTTP2ErrorCode, debugData: [UInt8])
    /// An RST_STREAM frame left for the peer, whoever decided it (the owner through
    /// `resetStream`, or nghttp2 for a stream error of the peer's): reported once per frame
    /// written, never for one dropped unsent.
    case resetSent(streamID: Int32, HTTP2ErrorCode)
    /// A GOAWAY frame left for the peer (the owner's, or nghttp2's for a connection error).
    case goAwaySent(lastStreamID: Int32, errorCode: HTTP2ErrorCode)
    /// The peer's SETTINGS arrived (or changed): how many streams it lets us open.
    case settings(maxConcurrentStreams: UInt32)
    /// Every byte queued on a stream's outbound queue has been framed (backpressure can lift).
    case outboundDrained(streamID: Int32)
    /// The session cannot go on (bad preface, a flood, a protocol error); write what
    /// `send(into:)` still produces, then close.
    case connectionError(HTTP2Failure)
}

extension HTTP2Event {
    /// What a handler leaves in the array `HTTP2Session.handleEvents` hands it when it moves an
    /// event out instead of copying it: END_STREAM on stream 0, which no peer can cause. The
    /// session empties the array before it collects into it again.
    /// (Computed and inlinable: a stored static would be reached through a call per event.)
    @inlinable
    public static var movedOut: HTTP2Event { .endStream(streamID: 0) }
}
