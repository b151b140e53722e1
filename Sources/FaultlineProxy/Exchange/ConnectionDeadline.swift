/// The one deadline a client connection is under at any moment, and what expires with it.
///
/// A value with no I/O: the connection arms it as its phase changes and the loop's sweep asks
/// it whether anything expired, so tests can drive it with a stepped clock.
struct ConnectionDeadline: Equatable {
    /// Which timeout a deadline enforces.
    enum Kind: Equatable {
        /// A request head must arrive completely in time.
        case clientHeader
        /// A keep-alive connection may stay idle this long between requests.
        case clientIdle
        /// A request body must keep flowing (inactivity).
        case clientBody
        /// The upstream must accept the connection in time.
        case upstreamConnect
        /// The upstream must keep answering (time to response head, then between reads).
        case upstreamResponse
        /// A tunnel (after 101) must carry a byte either way this often.
        case tunnelIdle
    }

    private(set) var kind: Kind?
    private(set) var deadline: UInt64 = 0

    /// Starts (or restarts) a deadline `milliseconds` after `now` (nanoseconds).
    mutating func arm(_ kind: Kind, now: UInt64, milliseconds: Int) {
        self.kind = kind
        deadline = now &+ UInt64(max(0, milliseconds)) &* 1_000_000
    }

    /// No deadline applies (e.g. while streaming a response the client reads).
    mutating func disarm() {
        kind = nil
        deadline = 0
    }

    /// The kind that has expired at `now`, if any.
    func expired(now: UInt64) -> Kind? {
        guard let kind, now >= deadline else { return nil }
        return kind
    }
}
