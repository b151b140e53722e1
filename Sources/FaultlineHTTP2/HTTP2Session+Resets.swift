import FaultlineHTTP
private import CNghttp2

/// The stream-reset limit of a server session, counted from the frames themselves: the
/// client's RST_STREAM frames, and those sent because of the client's protocol errors.
extension HTTP2Session {
    /// The peer reset a stream: nghttp2 limits these itself; the token also comes out of the
    /// bucket the resets the peer causes share, so both together stay within one limit.
    func resetReceived() {
        guard role == .server else { return }
        _ = resetBudget.spend(now: .now)
    }

    /// An RST_STREAM frame was written. One nghttp2 queued itself answers a stream error of the
    /// peer's (RFC 9113 §5.4.2); so does one the owner marked so. Past the limit the session ends
    /// with GOAWAY ENHANCE_YOUR_CALM, and the resets still queued are never written.
    func resetSent(streamID: Int32, errorCode: HTTP2ErrorCode) {
        events.append(.resetSent(streamID: streamID, errorCode))
        let answersPeerError = ownResets.removeValue(forKey: streamID) ?? true
        guard role == .server, answersPeerError, wantsRead, let session else { return }
        if resetBudget.spend(now: .now) { return }
        nghttp2_session_terminate_session(session, HTTP2ErrorCode.enhanceYourCalm.rawValue)
        events.append(.connectionError(HTTP2Failure(code: NGHTTP2_ERR_FLOODED.rawValue,
                                                    message: "too many streams reset for the client's protocol errors")))
    }

    /// nghttp2 dropped an RST_STREAM unsent (the session is closing).
    func resetNotSent(streamID: Int32) {
        ownResets.removeValue(forKey: streamID)
    }
}
