/// What the adapter knows of an upstream attempt that failed.
struct UpstreamAttemptFacts: Equatable {
    /// The connection came from the pool.
    var reused = false
    /// Any byte of a final response arrived.
    var sawResponseBytes = false
    /// The kernel took no byte of this request.
    var sentNothing = false
    /// The body sent so far is kept and can be sent again.
    var replayable = true

    /// Only a pooled connection that died before any response byte qualifies (a stale
    /// keep-alive connection, the classic race), and then only if a second copy cannot do
    /// harm: the method is idempotent, or the upstream provably received nothing. An HTTP/2
    /// stream the upstream declares unprocessed (REFUSED_STREAM, above a GOAWAY's last
    /// stream id) qualifies whatever the method: RFC 9113 §8.7 says it was not acted on.
    func allowRetry(after failure: UpstreamFailure, idempotent: Bool) -> Bool {
        guard !sawResponseBytes, replayable else { return false }
        switch failure.retryClass {
        case .connectionLost: return reused && (idempotent || sentNothing)
        case .notProcessed: return true
        case .other: return false
        }
    }
}
