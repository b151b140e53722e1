import FaultlineConfig

/// A scenario as the admin API shows it (`GET /scenarios[/{name}]`, and the answers of the
/// changes): its definition in short and where its timeline stands.
struct ScenarioJSON: Encodable {
    let name: String
    /// "file" or "admin".
    let source: String
    /// "running", "stopped" or "finished".
    let state: String
    let loop: Bool
    let phases: [Phase]
    /// The phase in effect; nil unless running.
    let current: Current?
    /// Phases begun since it was defined.
    let transitions: Int

    struct Phase: Encodable {
        let index: Int
        let name: String?
        let forMs: Int?
        let requests: Int?
        let rules: [String]

        enum CodingKeys: String, CodingKey {
            case index, name, requests, rules
            case forMs = "for_ms"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(index, forKey: .index)
            try container.encode(name, forKey: .name)
            try container.encode(forMs, forKey: .forMs)
            try container.encode(requests, forKey: .requests)
            try container.encode(rules, forKey: .rules)
        }
    }

    struct Current: Encodable {
        let index: Int
        let name: String?
        /// Times the scenario looped back to its first phase.
        let cycle: Int
        /// "time", "requests" or "stopped" (the phase lasts until the scenario stops).
        let endsBy: String
        let elapsedMs: Int
        /// Milliseconds before a timed phase ends; nil for the others.
        let msLeft: Int?
        /// Requests before a counted phase ends; nil for the others.
        let requestsLeft: Int?
        let matchedRequests: Int
        /// The phase's rules with their counters, in match order.
        let rules: [RuleJSON]
        /// Rules skipped because their upstream is not in the running configuration.
        let stale: [String]

        enum CodingKeys: String, CodingKey {
            case index, name, cycle, rules, stale
            case endsBy = "ends_by", elapsedMs = "elapsed_ms", msLeft = "ms_left", requestsLeft = "requests_left"
            case matchedRequests = "matched_requests"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(index, forKey: .index)
            try container.encode(name, forKey: .name)
            try container.encode(cycle, forKey: .cycle)
            try container.encode(endsBy, forKey: .endsBy)
            try container.encode(elapsedMs, forKey: .elapsedMs)
            try container.encode(msLeft, forKey: .msLeft)
            try container.encode(requestsLeft, forKey: .requestsLeft)
            try container.encode(matchedRequests, forKey: .matchedRequests)
            try container.encode(rules, forKey: .rules)
            try container.encode(stale, forKey: .stale)
        }
    }

    private enum CodingKeys: String, CodingKey {
        case name, source, state, loop, phases, current, transitions
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(source, forKey: .source)
        try container.encode(state, forKey: .state)
        try container.encode(loop, forKey: .loop)
        try container.encode(phases, forKey: .phases)
        try container.encode(current, forKey: .current)
        try container.encode(transitions, forKey: .transitions)
    }

    /// The rules of a phase with their counters, in match order.
    private static func rules(of ruleSet: SessionRuleSet) -> [RuleJSON] {
        let stats = ruleSet.decider.stats()
        return ruleSet.rules.enumerated().map { index, rule in
            RuleJSON(rule, source: "scenario", enabled: true, stats: stats.filter { $0.routeIndex == index })
        }
    }

    init(_ slot: ScenarioSlot, now: UInt64) {
        name = slot.config.name
        source = slot.origin.rawValue
        state = slot.stateName
        loop = slot.config.loop
        transitions = slot.transitions
        phases = slot.config.phases.enumerated().map { index, phase in
            var forMs: Int?
            var requests: Int?
            switch phase.end {
            case .elapsed(let milliseconds): forMs = milliseconds
            case .requests(let count): requests = count
            case .never: break
            }
            return Phase(index: index, name: phase.name, forMs: forMs, requests: requests, rules: phase.rules.map(\.name))
        }
        current = slot.phase.map { phase in
            let elapsed = now > phase.startedNs ? Int((now - phase.startedNs) / 1_000_000) : 0
            let endsBy = switch phase.end {
            case .elapsed: "time"
            case .requests: "requests"
            case .never: "stopped"
            }
            let msLeft = phase.deadlineNs.map { deadline in deadline > now ? Int((deadline - now + 999_999) / 1_000_000) : 0 }
            return Current(index: phase.index, name: phase.name, cycle: phase.cycle, endsBy: endsBy, elapsedMs: elapsed,
                           msLeft: msLeft, requestsLeft: phase.requestsLeft,
                           matchedRequests: phase.matched.load(ordering: .relaxed), rules: Self.rules(of: phase.rules),
                           stale: phase.rules.stale)
        }
    }
}
