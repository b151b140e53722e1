/// The stream-reset allowance of one server session, a token bucket like the one nghttp2 keeps
/// for RST_STREAM frames it receives (`HTTP2Settings.streamResetBurst` tokens, refilled by
/// `streamResetRate` per whole second). nghttp2 1.52 counts only the resets a client sends; a
/// client can make the server reset its streams instead ("MadeYouReset", CVE-2025-8671: a body
/// longer than its content-length, a zero WINDOW_UPDATE, a malformed field), so the session
/// also spends a token per RST_STREAM it sends for such an error, and the connection ends with
/// GOAWAY ENHANCE_YOUR_CALM once none is left. The client's own resets draw on the same bucket.
/// Pure: the caller passes the time.
struct HTTP2ResetBudget {
    private let burst: UInt64
    private let perSecond: UInt64
    private var tokens: UInt64
    /// When the bucket was last refilled (whole seconds are counted from here).
    private var refilledAt: ContinuousClock.Instant

    /// A full bucket.
    init(burst: UInt64, perSecond: UInt64, now: ContinuousClock.Instant) {
        self.burst = burst
        self.perSecond = perSecond
        tokens = burst
        refilledAt = now
    }

    /// Takes one token; false when none is left (the bucket stays empty until it refills).
    mutating func spend(now: ContinuousClock.Instant) -> Bool {
        refill(now: now)
        guard tokens > 0 else { return false }
        tokens -= 1
        return true
    }

    /// Adds `perSecond` tokens per whole second since the last refill, up to `burst`.
    private mutating func refill(now: ContinuousClock.Instant) {
        guard now > refilledAt else { return }
        let seconds = UInt64(clamping: (now - refilledAt).components.seconds)
        guard seconds > 0 else { return }
        refilledAt = refilledAt + .seconds(Int64(clamping: seconds))
        let (gained, overflow) = seconds.multipliedReportingOverflow(by: perSecond)
        let (sum, sumOverflow) = tokens.addingReportingOverflow(gained)
        tokens = overflow || sumOverflow ? burst : min(burst, sum)
    }
}
