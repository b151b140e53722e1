import FaultlineConfig

/// Rules as the admin API shows them: the config file's keys and values, plus where each
/// rule came from, whether it is on, each fault's `kind` and its counters.
enum RuleJSON {
    /// One rule with `source`, `enabled` and, per fault, its counters from `stats`.
    static func rule(_ route: RouteConfig, source: String, enabled: Bool, stats: [FaultStats]) -> [String: Any] {
        [
            "name": route.name,
            "match": match(route.match),
            "upstream": route.upstream,
            "source": source,
            "enabled": enabled,
            "faults": route.faults.enumerated().map { index, fault in
                var object = self.fault(fault)
                let row = stats.first { $0.faultIndex == index }
                object["stats"] = ["matched": row?.matched ?? 0, "fired": row?.fired ?? 0, "active": row?.active ?? 0]
                return object
            },
        ]
    }

    /// The `match` object; `{}` matches every request.
    static func match(_ match: RouteMatch) -> [String: Any] {
        var object: [String: Any] = [:]
        if let host = match.host { object["host"] = host.description }
        if let methods = match.methods { object["methods"] = methods }
        switch match.path {
        case .exact(let path)?: object["path"] = path
        case .prefix(let path)?: object["path_prefix"] = path
        case .glob(let path)?: object["path_glob"] = path
        case nil: break
        }
        return object
    }

    /// One fault: its kind keyword with the parameters, `name`, `when` and `enabled`.
    static func fault(_ fault: FaultSpec) -> [String: Any] {
        var object: [String: Any] = ["name": fault.name, "enabled": fault.enabled, "kind": fault.kind.keyword]
        object[fault.kind.keyword] = FaultKindJSON.parameters(fault.kind)
        let when = condition(fault.when)
        if !when.isEmpty { object["when"] = when }
        return object
    }

    /// The `when` object; empty when the fault fires on every matched request.
    static func condition(_ when: FaultCondition) -> [String: Any] {
        var object: [String: Any] = [:]
        if let value = when.probability { object["probability"] = value }
        if let value = when.firstN { object["first_n"] = value }
        if let value = when.afterN { object["after_n"] = value }
        if let value = when.everyNth { object["every_nth"] = value }
        if let value = when.activeForMs { object["active_for_ms"] = value }
        if let value = when.maxActive { object["max_active"] = value }
        if let steps = when.sequence {
            object["sequence"] = steps.map { step -> Any in
                switch step {
                case .fire: true
                case .pass: "pass"
                case .status(let code): code
                }
            }
        }
        return object
    }
}
