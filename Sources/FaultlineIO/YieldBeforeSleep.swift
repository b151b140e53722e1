/// Whether a loop about to sleep yields its core first, learned from what the yields did.
///
/// A yield pays when another thread is runnable on the loop's core (a client, an origin or a
/// second worker sharing it): that thread often produces the very events the loop would sleep
/// for. On a core the loop has to itself, `sched_yield()` returns at once, and the probe and
/// the yield are two system calls per sleep for nothing (on a dedicated core under keep-alive
/// load: 0.4 more system calls per request, 4.54-4.57 → 4.95-4.98). Whether another thread
/// ran shows in how long the yield took: alone, under a microsecond; when another thread ran,
/// that thread's time slice (the measurements are in docs/bench.md, "Yielding before
/// sleeping"). A yield the hypervisor stretched reads as one that paid: harmless, the loop
/// just yields a little longer.
///
/// So after `unpaidLimit` yields in a row returned at once, the loop sleeps without yielding
/// for `restSleeps` sleeps, then tries again; a yield that let another thread run starts the
/// count over. A pure state machine: the loop reads the clock and makes the calls.
struct YieldBeforeSleep {
    /// A yield that took at least this long let another thread run (alone it takes 0.5-1 µs).
    static let ranOtherThreadNanoseconds: UInt64 = 2_000
    /// Yields in a row that returned at once before the loop stops yielding for a while.
    static let unpaidLimit = 16
    /// Sleeps without a yield before the loop tries again.
    static let restSleeps = 1_024

    /// What the loop does about yielding at the next sleep.
    enum Phase: Equatable {
        /// Yields before each sleep; `unpaid` yields in a row have returned at once.
        case yielding(unpaid: Int)
        /// Sleeps without yielding; `left` sleeps remain before it yields again.
        case resting(left: Int)
    }

    private(set) var phase = Phase.yielding(unpaid: 0)

    /// Whether to yield before this sleep. A resting loop counts the sleep.
    mutating func shouldYield() -> Bool {
        switch phase {
        case .yielding:
            return true
        case .resting(let left):
            phase = left > 1 ? .resting(left: left - 1) : .yielding(unpaid: 0)
            return false
        }
    }

    /// Records how long a yield took (monotonic nanoseconds).
    mutating func yielded(for duration: UInt64) {
        guard case .yielding(let unpaid) = phase else { return }
        if duration >= Self.ranOtherThreadNanoseconds {
            phase = .yielding(unpaid: 0)
        } else if unpaid + 1 >= Self.unpaidLimit {
            phase = .resting(left: Self.restSleeps)
        } else {
            phase = .yielding(unpaid: unpaid + 1)
        }
    }
}
