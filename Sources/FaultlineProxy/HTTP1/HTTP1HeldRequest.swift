import FaultlineConfig
import FaultlineHTTP

/// A request a `DownstreamConnection` reads whole before routing it, because a rule's `json`
/// conditions may match it: its head (origin form), session, record, and the body so far (at
/// most `limits.max_match_body_bytes` and one decoder event more).
final class HTTP1HeldRequest {
    let head: HTTPHead
    let trace: ExchangeTrace?
    let membership: SessionMembership
    /// When the head arrived (monotonic ns): the exchange's start.
    let receivedAt: UInt64
    /// The most body bytes read before routing.
    let limit: Int
    var body: [UInt8] = []
    var trailers: HTTPHeaders?

    init(head: HTTPHead, trace: ExchangeTrace?, membership: SessionMembership, receivedAt: UInt64, limit: Int) {
        self.head = head
        self.trace = trace
        self.membership = membership
        self.receivedAt = receivedAt
        self.limit = limit
    }
}
