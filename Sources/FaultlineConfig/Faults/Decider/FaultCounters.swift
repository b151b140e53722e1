import Synchronization

/// The shared, mutable state of one fault in one `FaultDecider`: lock-free counters that
/// every event loop updates with relaxed atomics (each counter is independent; nothing
/// is published through them).
final class FaultCounters: Sendable {
    /// Matched requests (route matched, fault enabled), the n of first_n/after_n/every_nth.
    let matched = Atomic<Int>(0)
    /// Requests the fault fired on.
    let fired = Atomic<Int>(0)
    /// Injections in progress (fired, `finished` not yet called).
    let active = Atomic<Int>(0)
    /// Next position in `when.sequence`.
    let step = Atomic<Int>(0)
    /// Draws taken from the random stream.
    let draws = Atomic<UInt64>(0)
    /// Start of the `active_for_ms` window, in clock milliseconds.
    let windowStart: Atomic<UInt64>
    /// The fault's random stream.
    let stream: UInt64

    init(stream: UInt64, windowStart: UInt64) {
        self.stream = stream
        self.windowStart = Atomic(windowStart)
    }

    /// The next 64 bits of the fault's stream.
    func nextRandom() -> UInt64 {
        let index = draws.wrappingAdd(1, ordering: .relaxed).oldValue
        return SeededRandom.value(stream: stream, index: index)
    }

    /// The next draw in 0..<1.
    func nextUnit() -> Double {
        SeededRandom.unit(nextRandom())
    }

    /// Counts one more active injection unless `cap` are already active.
    func acquire(cap: Int?) -> Bool {
        guard let cap else {
            active.wrappingAdd(1, ordering: .relaxed)
            return true
        }
        var current = active.load(ordering: .relaxed)
        while current < cap {
            let (exchanged, original) = active.compareExchange(
                expected: current, desired: current + 1, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
        return false
    }

    /// Ends one active injection (never below zero).
    func release() {
        var current = active.load(ordering: .relaxed)
        while current > 0 {
            let (exchanged, original) = active.compareExchange(
                expected: current, desired: current - 1, ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }

    /// Back to the state of a fresh load at `now`; `active` is kept, since injections in
    /// progress will still finish.
    func reset(now: UInt64) {
        matched.store(0, ordering: .relaxed)
        fired.store(0, ordering: .relaxed)
        step.store(0, ordering: .relaxed)
        draws.store(0, ordering: .relaxed)
        windowStart.store(now, ordering: .relaxed)
    }
}
