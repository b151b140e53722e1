import FaultlineConfig
import Synchronization

/// One phase of a running scenario, as new exchanges see it: its compiled rules (with their
/// own counters, so `first_n` counts from the phase's start), when it began and how it ends.
/// Immutable but for the count of requests its rules took; a phase change publishes a new
/// one, so every exchange starts on exactly one phase.
final class ActivePhase: Sendable {
    /// The scenario's name.
    let scenario: String
    /// 0-based index in the scenario's phases.
    let index: Int
    /// The phase's own name, if it has one.
    let name: String?
    /// How many times the scenario came back to its first phase before this phase began.
    let cycle: Int
    /// Identifies this start of the phase: a recompile after a reload keeps it, so a timer
    /// set for the phase still finds it, while a later start of the same phase does not.
    let serial: UInt64
    /// How it ends.
    let end: ScenarioPhase.End
    /// Monotonic time (ns) it began.
    let startedNs: UInt64
    /// The rules, compiled like a session's (a rule without `upstream` takes the global route's).
    let rules: SessionRuleSet
    /// Requests the rules took (for a phase that ends after a number of them).
    let matched: Atomic<Int>

    init(scenario: String, index: Int, phase: ScenarioPhase, cycle: Int, serial: UInt64, startedNs: UInt64,
         rules: SessionRuleSet, matched: Int = 0) {
        self.scenario = scenario
        self.index = index
        name = phase.name
        self.cycle = cycle
        self.serial = serial
        end = phase.end
        self.startedNs = startedNs
        self.rules = rules
        self.matched = Atomic(matched)
    }

    /// Monotonic time (ns) a timed phase ends; nil for the others.
    var deadlineNs: UInt64? {
        guard case .elapsed(let milliseconds) = end else { return nil }
        return startedNs &+ UInt64(milliseconds) &* 1_000_000
    }

    /// Requests left before a counted phase ends; nil for the others.
    var requestsLeft: Int? {
        guard case .requests(let limit) = end else { return nil }
        return max(0, limit - matched.load(ordering: .relaxed))
    }
}
