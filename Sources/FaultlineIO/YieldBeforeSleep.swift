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
/// A thread that ran and produced nothing for the loop makes the yield worse than useless:
/// a busy process sharing the core (a build, a test suite) keeps it for a whole time slice,
/// milliseconds, while the loop's events wait. Had the loop slept instead, their arrival
/// would have woken it ahead of that process. So the loop looks for events right after a
/// yield that let another thread run, and one such yield that brought none stops the yields
/// at once. After `unpaidLimit` yields in a row that returned at once, the loop stops too.
/// Stopped, it sleeps without yielding for `restSleeps` sleeps, then tries again; a yield
/// that brought events starts the count over. A yield the hypervisor stretched reads as one
/// that let another thread run: the events check then decides. A pure state machine: the
/// loop reads the clock, makes the calls and reports what each yield turned out to be.
struct YieldBeforeSleep {
    /// A yield that took at least this long let another thread run (alone it takes 0.5-1 µs).
    static let ranOtherThreadNanoseconds: UInt64 = 2_000
    /// Yields in a row that returned at once before the loop stops yielding for a while.
    static let unpaidLimit = 16
    /// Sleeps without a yield before the loop tries again.
    static let restSleeps = 1_024

    /// What a yield turned out to be.
    enum Outcome: Equatable {
        /// It returned at once: no other thread was runnable on the core.
        case returnedAtOnce
        /// Another thread ran, and events for the loop were ready when it came back.
        case broughtEvents
        /// Another thread ran, and nothing for the loop came of it: time lost to the loop.
        case ranUnrelatedWork
    }

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

    /// Whether a yield that took `duration` nanoseconds let another thread run, so that the
    /// loop should look for events before it reports the outcome.
    static func letAnotherThreadRun(_ duration: UInt64) -> Bool {
        duration >= ranOtherThreadNanoseconds
    }

    /// Records what a yield turned out to be.
    mutating func yielded(_ outcome: Outcome) {
        guard case .yielding(let unpaid) = phase else { return }
        switch outcome {
        case .broughtEvents:
            phase = .yielding(unpaid: 0)
        case .ranUnrelatedWork:
            phase = .resting(left: Self.restSleeps)
        case .returnedAtOnce:
            phase = unpaid + 1 >= Self.unpaidLimit ? .resting(left: Self.restSleeps) : .yielding(unpaid: unpaid + 1)
        }
    }
}
