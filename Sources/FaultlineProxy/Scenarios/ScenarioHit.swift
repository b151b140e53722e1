import FaultlineConfig

/// A scenario rule that took a request: the route, the decider of its faults, and the phase.
struct ScenarioHit {
    let route: CompiledRoute
    let decider: FaultDecider
    let phase: ActivePhase
}
