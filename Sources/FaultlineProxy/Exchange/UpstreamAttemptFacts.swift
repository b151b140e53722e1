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
    /// harm: the method is idempotent, or the upstream provably received nothing.
    func allowRetry(after failure: UpstreamFailure, idempotent: Bool) -> Bool {
        guard reused, !sawResponseBytes, replayable, case .connectionLost = failure.retryClass else { return false }
        return idempotent || sentNothing
    }
}
