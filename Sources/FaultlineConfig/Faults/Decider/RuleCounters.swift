/// The decider's state for one route: one `FaultCounters` per fault, and the faults'
/// composition order, computed once.
final class RuleCounters: Sendable {
    /// The route's index in its table.
    let routeIndex: Int
    /// The route's name.
    let routeName: String
    /// The faults' names, by fault index.
    let faultNames: [String]
    /// Per-fault state, by fault index.
    let faults: [FaultCounters]
    /// Fault indices in composition order: phase, then rank, then declaration order.
    let order: [Int]
    /// The faults this state was made for, to tell whether a new rule set changed them.
    let specs: [FaultSpec]

    convenience init(route: CompiledRoute, seed: UInt64, now: UInt64) {
        self.init(route: route, faults: route.faults.indices.map {
            FaultCounters(stream: SeededRandom.stream(seed: seed, route: route.index, fault: $0), windowStart: now)
        })
    }

    /// State for `route` that continues `faults` (the same rule in a new rule set).
    init(route: CompiledRoute, faults: [FaultCounters]) {
        routeIndex = route.index
        routeName = route.name
        faultNames = route.faults.map(\.name)
        specs = route.faults
        self.faults = faults
        order = route.faults.indices.sorted { lhs, rhs in
            let left = route.faults[lhs].kind
            let right = route.faults[rhs].kind
            if left.phase != right.phase { return left.phase < right.phase }
            if left.compositionRank != right.compositionRank { return left.compositionRank < right.compositionRank }
            return lhs < rhs
        }
    }

    /// Whether this state can go on for `faults` (the same rule in a new rule set): the same
    /// faults in the same order, whatever their switches.
    func continues(_ faults: [FaultSpec]) -> Bool {
        faults.count == specs.count && zip(faults, specs).allSatisfy { $0.isSameInjection(as: $1) }
    }

    /// Whether this state was built for `route` (same position and fault count), so a
    /// route from another table can never index past the counters.
    func fits(_ route: CompiledRoute) -> Bool {
        routeIndex == route.index && faults.count == route.faults.count
    }
}
