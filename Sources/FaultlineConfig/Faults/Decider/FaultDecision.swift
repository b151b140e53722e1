/// The faults that fire on one request, in composition order. Per-request state, apart
/// from the rule: pass it back to `FaultDecider.finished(_:)` exactly once when the
/// injection ends (response done, connection closed or request abandoned), so
/// `max_active` and the active count are released.
public struct FaultDecision: Sendable {
    /// Index of the route the request matched.
    public let routeIndex: Int
    /// Fired faults in the order they apply; empty when nothing fires.
    public let fired: [FiredFault]
    /// The counters to release in `finished`; nil when nothing fired.
    let counters: RuleCounters?

    init(routeIndex: Int, fired: [FiredFault] = [], counters: RuleCounters? = nil) {
        self.routeIndex = routeIndex
        self.fired = fired
        self.counters = fired.isEmpty ? nil : counters
    }

    /// Whether no fault fires (the request is proxied untouched).
    public var isEmpty: Bool {
        fired.isEmpty
    }
}
