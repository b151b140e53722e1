/// One fault declared on a route: what to inject (`kind`), when (`when`), and whether it
/// is switched on. A value of configuration: the per-request state (counters, the random
/// stream, active injections) lives in a `FaultDecider`, never here.
public struct FaultSpec: Sendable, Equatable {
    /// Name unique within the route, reported in stats, logs and the optional marker
    /// header. Defaults to the kind keyword ("status"; "status-2" for a second one).
    public let name: String
    /// What to inject, with its parameters.
    public let kind: FaultKind
    /// Conditions that must all hold for the fault to fire on a request.
    public let when: FaultCondition
    /// A disabled fault is never evaluated and its counters do not move.
    public let enabled: Bool

    /// Creates a fault.
    public init(name: String, kind: FaultKind, when: FaultCondition = FaultCondition(), enabled: Bool = true) {
        self.name = name
        self.kind = kind
        self.when = when
        self.enabled = enabled
    }

    /// Whether `other` injects the same thing under the same conditions, switched on or not:
    /// a fault toggled off and on again is the same fault, so it keeps its state.
    public func isSameInjection(as other: FaultSpec) -> Bool {
        name == other.name && kind == other.kind && when == other.when
    }

    /// The exchange phase the fault acts at (see `FaultKind.phase`).
    public var phase: FaultPhase {
        kind.phase
    }
}
