import FaultlineHTTP

/// A request an `HTTP2Stream` holds until its stream ends: the translated head, the session it
/// belongs to, and the body so far (at most `http2.max_buffered_request_body` bytes, since
/// nghttp2 resets a stream whose DATA outgrows its content-length, or, for a rule's `json`
/// conditions, `limits.max_match_body_bytes` and one DATA frame).
final class HTTP2HeldRequest {
    let head: HTTPHead
    let membership: SessionMembership
    /// When the head arrived (monotonic ns): the exchange's start, as for a streamed request.
    let receivedAt: UInt64
    /// Set when the body is read for `json` conditions: the most that is held for them.
    let matchLimit: Int?
    var body: [UInt8] = []
    /// Trailers that came before END_STREAM, handed to the exchange when it starts.
    var trailers: HTTPHeaders?

    init(head: HTTPHead, membership: SessionMembership, receivedAt: UInt64, matchLimit: Int?) {
        self.matchLimit = matchLimit
        self.head = head
        self.membership = membership
        self.receivedAt = receivedAt
    }
}
