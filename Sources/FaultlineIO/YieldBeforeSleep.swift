/// Whether a loop about to sleep yields its core first, learned from what the yields did.
///
/// A yield pays when another thread is runnable on the loop's core (a client, an origin or a
/// second worker sharing it): that thread often produces the very events the loop would sleep
/// for. On a core the loop has to itself, `sched_yield()` returns at once, and the probe and
/// the yield are two system calls per sleep for nothing (on a dedicated core under keep-alive
/// load: 0.4 more system calls per request, 4.54-4.57 → 4.95-4.98). Whether another thread
/// ran shows in how long the yield took: alone, under a microsecond; when another thread ran,
/// that thread's time slice (the measurements are in docs/bench.md, "Yielding before
/// sleeping").
///
/// A yield can also stall the loop. A busy process sharing the core (a build, a test suite)
/// keeps it for a whole time slice, milliseconds, while the loop's next request waits; had the
/// loop slept instead, that request would have woken it ahead of the busy process. Such a
/// yield is long and brings the loop one event, which waited. Long yields also happen on cores
/// crowded with the loop's own clients, origin and other loops, but those bring many events at
/// once (the batching the yield is for), or none while the loop has nothing to do (which
/// counts neither way: a client that pauses between requests must not hide the stalls).
///
/// So the loop stops yielding after `unpaidLimit` yields in a row that returned at once, or
/// when stalls come close together: each adds `stallWeight` to a debt that every paying yield
/// pays off by one, and the loop stops when the debt reaches `stallDebtLimit` (three stalls
/// with at most eight paying yields among them; beside a busy process, the yields that come
/// back early from the end of its time slice pay, so a count of stalls in a row would never
/// be reached). It then sleeps without yielding for `restSleeps` sleeps and tries again. A
/// pure state machine: the loop reads the clock, counts the events ready after a long yield,
/// and reports.
struct YieldBeforeSleep {
    /// A yield that took at least this long let another thread run (alone it takes 0.5-1 µs).
    static let ranOtherThreadNanoseconds: UInt64 = 2_000
    /// A yield that took at least this long may have stalled the loop: longer than the
    /// loop's own neighbours run between events, about a scheduler's time slice (0.75 ms and
    /// more).
    static let mayHaveStalledNanoseconds: UInt64 = 500_000
    /// Yields in a row that returned at once before the loop stops yielding for a while.
    static let unpaidLimit = 16
    /// What a stall adds to the debt, in paying yields.
    static let stallWeight = 16
    /// The debt at which the loop stops yielding.
    static let stallDebtLimit = 40
    /// Sleeps without a yield before the loop tries again.
    static let restSleeps = 1_024

    /// What a yield turned out to be.
    enum Outcome: Equatable {
        /// It returned at once: no other thread was runnable on the core.
        case returnedAtOnce
        /// Other threads ran, briefly or bringing several events: what the yield is for.
        case letOthersRun
        /// Another thread held the core for a long time and brought the loop one event.
        case stalled
        /// Another thread held the core for a long time while nothing came for the loop: it
        /// cost the loop nothing and bought it nothing, so it counts neither way.
        case nothingWaited
    }

    /// What the loop does about yielding at the next sleep.
    enum Phase: Equatable {
        /// Yields before each sleep; `unpaid` yields in a row returned at once, and the stalls
        /// left `stallDebt` not yet paid off.
        case yielding(unpaid: Int, stallDebt: Int)
        /// Sleeps without yielding; `left` sleeps remain before it yields again.
        case resting(left: Int)
    }

    private(set) var phase = Phase.yielding(unpaid: 0, stallDebt: 0)

    /// Whether to yield before this sleep. A resting loop counts the sleep.
    mutating func shouldYield() -> Bool {
        switch phase {
        case .yielding:
            return true
        case .resting(let left):
            phase = left > 1 ? .resting(left: left - 1) : .yielding(unpaid: 0, stallDebt: 0)
            return false
        }
    }

    /// Whether the outcome of a yield that took `duration` nanoseconds depends on how many
    /// events are ready after it (the loop then counts them before it reports).
    static func mayHaveStalled(_ duration: UInt64) -> Bool {
        duration >= mayHaveStalledNanoseconds
    }

    /// What a yield that took `duration` nanoseconds, with `eventsReady` events ready after
    /// it (counted only when `mayHaveStalled`), turned out to be.
    static func outcome(duration: UInt64, eventsReady: Int) -> Outcome {
        if duration < ranOtherThreadNanoseconds { return .returnedAtOnce }
        if !mayHaveStalled(duration) || eventsReady >= 2 { return .letOthersRun }
        return eventsReady == 1 ? .stalled : .nothingWaited
    }

    /// Records what a yield turned out to be.
    mutating func yielded(_ outcome: Outcome) {
        guard case .yielding(let unpaid, let debt) = phase else { return }
        switch outcome {
        case .letOthersRun:
            phase = .yielding(unpaid: 0, stallDebt: max(0, debt - 1))
        case .returnedAtOnce:
            phase = unpaid + 1 >= Self.unpaidLimit ? .resting(left: Self.restSleeps) : .yielding(unpaid: unpaid + 1, stallDebt: debt)
        case .stalled:
            let owed = debt + Self.stallWeight
            phase = owed >= Self.stallDebtLimit ? .resting(left: Self.restSleeps) : .yielding(unpaid: unpaid, stallDebt: owed)
        case .nothingWaited:
            break
        }
    }
}
