import FaultlineConfig

/// A defined scenario and where its timeline stands; held by a `ScenarioBoard` under its lock.
struct ScenarioSlot {
    /// Where a scenario's timeline stands.
    enum State {
        /// Defined, not running (never started, or stopped).
        case stopped
        /// Running, in this phase.
        case running(ActivePhase)
        /// Ran to the end of its last phase (no loop); no rule of it is in effect.
        case finished
    }

    /// Who defined it: the config file's are replaced by a reload, the admin API's survive it.
    enum Origin: String {
        case file
        case admin
    }

    var config: ScenarioConfig
    let origin: Origin
    var state: State = .stopped
    /// Phase changes since it was defined (starts count, stops do not).
    var transitions = 0
    /// Monotonic time (ns) it last started; orders the running scenarios.
    var startedNs: UInt64 = 0

    /// The phase in effect, if running.
    var phase: ActivePhase? {
        if case .running(let phase) = state { phase } else { nil }
    }

    /// "running", "stopped" or "finished".
    var stateName: String {
        switch state {
        case .stopped: "stopped"
        case .running: "running"
        case .finished: "finished"
        }
    }
}
