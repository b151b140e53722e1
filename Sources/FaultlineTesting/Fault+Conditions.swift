/// The `when` conditions (docs/config.md, "when"): all given must hold. Counts are of
/// requests that matched the rule, from 1, per session for a session's rules.
extension Fault {
    /// One step per request that meets the other conditions; once the steps run out the
    /// fault passes. `[503, 503, .pass]`: the 1st and 2nd matching requests get 503 (status
    /// faults only may use codes), the 3rd passes, and so does every later one.
    public func sequence(_ steps: [Step]) -> Fault {
        when("sequence", .array(steps.map(\.json)))
    }

    /// Only the first `n` matching requests (n ≥ 1).
    public func firstN(_ n: Int) -> Fault {
        when("first_n", .int(n))
    }

    /// Only after the first `n` matching requests (n ≥ 0).
    public func afterN(_ n: Int) -> Fault {
        when("after_n", .int(n))
    }

    /// Only requests n, 2n, 3n, … (n ≥ 1).
    public func everyNth(_ n: Int) -> Fault {
        when("every_nth", .int(n))
    }

    /// Fires with chance `p` (0...1), drawn from the seeded generator.
    public func probability(_ p: Double) -> Fault {
        when("probability", .double(p))
    }

    /// Only during the first `ms` milliseconds (≥ 1) after the rule was added or its
    /// counters reset: an outage window.
    public func activeFor(ms: Int) -> Fault {
        when("active_for_ms", .int(ms))
    }

    /// Only during the first `duration` (whole milliseconds) after the rule was added or its
    /// counters reset.
    public func activeFor(_ duration: Duration) -> Fault {
        activeFor(ms: duration.wholeMilliseconds)
    }

    /// At most `n` (≥ 1) injections of this fault in progress at once; others pass.
    public func maxActive(_ n: Int) -> Fault {
        when("max_active", .int(n))
    }
}
