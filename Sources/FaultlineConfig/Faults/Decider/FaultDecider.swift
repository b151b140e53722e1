import FaultlineSync

/// Decides per request which faults of the matched route fire, shared by every event
/// loop of one compiled rule set. Rules are configuration (`FaultSpec`); the state they
/// need (counts, the position in a sequence, the random stream, injections in progress)
/// lives here, in relaxed atomics per fault, so deciding never takes a lock for routes
/// passed at init and a route without faults costs one branch.
///
/// Randomness: each fault draws from its own SplitMix64 stream derived from (seed, route
/// index, fault index), so the same seed and request order give the same decisions and
/// adding a fault leaves the others' decisions alone. Replay is exact with one event loop
/// (`workers: 1`); with several, each fault's draws are taken in the order its requests
/// reach it, which the scheduler decides.
public final class FaultDecider: Sendable {
    /// The seed in use: the configured one, or one chosen at random (log it to replay).
    public let seed: UInt64
    let clock: @Sendable () -> UInt64
    /// State of the routes given at init, by route index: read without a lock.
    private let registered: [RuleCounters?]
    /// State of routes met later, created on first use.
    private let discovered: TracedMutex<[Int: RuleCounters]>

    /// Creates a decider. `seed` nil picks a random one (see `seed`). `clock` returns
    /// monotonic milliseconds (`FaultDecider.monotonicMilliseconds` in production, a
    /// stepped clock in tests); `active_for_ms` windows start at its value now. Pass the
    /// table's `routes` to create their state up front, so stats list every fault and
    /// decide never locks; other routes get their state on first use.
    ///
    /// `previous` is the decider of the rule set this one replaces (a reload or an admin
    /// change): a route whose name and faults are unchanged keeps its counts, sequence
    /// position, random stream and outage window, so changing one rule does not restart
    /// another's `sequence` or `first_n`. Switching faults on or off is no change to them
    /// (as Toxiproxy and Envoy keep a toggled fault's state): a rule disabled and enabled
    /// again goes on where it stopped.
    public init(seed: UInt64?, routes: [CompiledRoute] = [], clock: @escaping @Sendable () -> UInt64,
                inheriting previous: FaultDecider? = nil) {
        var generator = SystemRandomNumberGenerator()
        let seed = seed ?? previous?.seed ?? generator.next()
        let now = clock()
        self.seed = seed
        self.clock = clock
        let carried = previous?.seed == seed ? previous?.allCounters() ?? [] : []
        var registered: [RuleCounters?] = Array(repeating: nil, count: (routes.map(\.index).max() ?? -1) + 1)
        for route in routes where !route.faults.isEmpty {
            if let old = carried.first(where: { $0.routeName == route.name && $0.continues(route.faults) }) {
                registered[route.index] = RuleCounters(route: route, faults: old.faults)
            } else {
                registered[route.index] = RuleCounters(route: route, seed: seed, now: now)
            }
        }
        self.registered = registered
        self.discovered = TracedMutex([:])
    }

    /// Decides, for one request matching `route`, which of its faults fire, in composition
    /// order. Stops after a terminal fault (status without upstream, reset, close, hang,
    /// a lost profile request): later faults still count the request as matched but are
    /// not evaluated.
    public func decide(route: CompiledRoute) -> FaultDecision {
        if route.faults.isEmpty { return FaultDecision(routeIndex: route.index) }
        let rule = counters(for: route)
        var fired: [FiredFault] = []
        var stopped = false
        for index in rule.order {
            let spec = route.faults[index]
            guard spec.enabled else { continue }
            let state = rule.faults[index]
            let count = state.matched.wrappingAdd(1, ordering: .relaxed).newValue
            guard !stopped, let action = resolve(spec, state, count: count) else { continue }
            fired.append(FiredFault(faultIndex: index, name: spec.name, phase: spec.phase, action: action))
            stopped = action.isTerminal
        }
        return FaultDecision(routeIndex: route.index, fired: fired, counters: rule)
    }

    /// Ends the injections of `decision` (call once per decision); releases `max_active`.
    public func finished(_ decision: FaultDecision) {
        guard let counters = decision.counters else { return }
        for fault in decision.fired {
            counters.faults[fault.faultIndex].release()
        }
    }

    /// Matched, fired and active counts of every fault known to the decider, by route
    /// index then fault index.
    public func stats() -> [FaultStats] {
        allCounters().flatMap { rule in
            rule.faults.indices.map { index in
                let fault = rule.faults[index]
                return FaultStats(
                    routeIndex: rule.routeIndex, routeName: rule.routeName,
                    faultIndex: index, faultName: rule.faultNames[index],
                    matched: fault.matched.load(ordering: .relaxed),
                    fired: fault.fired.load(ordering: .relaxed),
                    active: fault.active.load(ordering: .relaxed))
            }
        }
    }

    /// Starts every fault afresh, as if just loaded: counts, sequences and random streams
    /// restart and `active_for_ms` windows reopen now. Active injections keep counting
    /// until they finish.
    public func resetCounters() {
        let now = clock()
        for rule in allCounters() {
            for fault in rule.faults {
                fault.reset(now: now)
            }
        }
    }

    private func counters(for route: CompiledRoute) -> RuleCounters {
        if route.index >= 0, route.index < registered.count, let rule = registered[route.index], rule.fits(route) {
            return rule
        }
        return discovered.withLock { table in
            if let rule = table[route.index], rule.fits(route) { return rule }
            let rule = RuleCounters(route: route, seed: seed, now: clock())
            table[route.index] = rule
            return rule
        }
    }

    private func allCounters() -> [RuleCounters] {
        var byIndex: [Int: RuleCounters] = [:]
        for case let rule? in registered {
            byIndex[rule.routeIndex] = rule
        }
        discovered.withLock { table in
            for (index, rule) in table where byIndex[index] == nil {
                byIndex[index] = rule
            }
        }
        return byIndex.keys.sorted().compactMap { byIndex[$0] }
    }
}
