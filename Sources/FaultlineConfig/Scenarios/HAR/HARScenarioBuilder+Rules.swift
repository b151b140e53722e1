import Foundation

extension HARScenarioBuilder {
    /// The rules of one window: one per request identity, in order of first appearance, with
    /// the outcome of its first entry there; `first_n` when requests of that identity also
    /// passed within the window (the failures came first).
    static func rules(_ window: HARScenarioWindow, all: [HARScenarioEntry], options: HARScenarioOptions,
                      notes: inout [String]) -> [[String: Any]] {
        var order: [String] = []
        var groups: [String: [HARScenarioEntry]] = [:]
        for entry in window.entries {
            if groups[entry.identity] == nil { order.append(entry.identity) }
            groups[entry.identity, default: []].append(entry)
        }
        let windowEnd = window.start + max(window.end - window.start, minimumPhaseMs)
        var rules: [[String: Any]] = []
        var names: Set<String> = []
        for identity in order {
            guard let group = groups[identity], let first = group.first else { continue }
            guard rules.count < ScenarioConfig.maxRulesPerPhase else {
                notes.append("phase \(JSONValue.quoted(window.name)): only the first \(ScenarioConfig.maxRulesPerPhase) rules are kept")
                break
            }
            let conflicting = all.filter { $0.route == first.route && !$0.outcome.sameKind(first.outcome) }
            var rule: [String: Any] = ["match": match(first, conflicting: conflicting)]
            let route = HARScenarioWindow.clip(first.route)
            var name = "\(route) \(first.outcome.label)"
            var suffix = 2
            while names.contains(name) {
                name = "\(route) \(first.outcome.label) #\(suffix)"
                suffix += 1
            }
            names.insert(name)
            rule["name"] = name
            var faults = HARScenarioFaults.faults(first, options: options, notes: &notes)
            let passedLater = all.contains { other in
                other.identity == identity && !other.outcome.sameKind(first.outcome)
                    && other.offsetMs >= window.start && other.offsetMs <= windowEnd
            }
            if passedLater, !faults.isEmpty {
                for index in faults.indices { faults[index]["when"] = ["first_n": group.count] }
            }
            rule["faults"] = faults
            rules.append(rule)
        }
        return rules
    }

    private static let maxConditions = 8

    /// Method and path, plus the query parameters and then the JSON body members that set
    /// `entry` apart from the requests to the same route that had another outcome.
    static func match(_ entry: HARScenarioEntry, conflicting: [HARScenarioEntry]) -> [String: Any] {
        var match: [String: Any] = ["methods": [entry.method], "path": entry.path]
        guard !conflicting.isEmpty else { return match }
        var query: [String: Any] = [:]
        for pair in entry.query where query.count < maxConditions && query[pair.name] == nil {
            // A parameter every conflicting request sent with the same value tells nothing apart.
            if conflicting.contains(where: { other in !other.query.contains { $0.name == pair.name && $0.value == pair.value } }) {
                query[pair.name] = pair.value
            }
        }
        let names = Set(entry.query.map(\.name))
        for other in conflicting {
            for pair in other.query where !names.contains(pair.name) && query.count < maxConditions && query[pair.name] == nil {
                query[pair.name] = false
            }
        }
        if !query.isEmpty { match["query"] = query }
        let stillConflicting = conflicting.filter { other in
            query.allSatisfy { name, condition in
                if let value = condition as? String { return other.query.contains { $0.name == name && $0.value == value } }
                return !other.query.contains { $0.name == name }
            }
        }
        var json: [String: Any] = [:]
        for pointer in entry.jsonMembers.keys.sorted() where json.count < maxConditions {
            guard let value = entry.jsonMembers[pointer] else { continue }
            if stillConflicting.contains(where: { $0.jsonMembers[pointer] != value }) { json[pointer] = value }
        }
        if !json.isEmpty { match["json"] = json }
        return match
    }
}
