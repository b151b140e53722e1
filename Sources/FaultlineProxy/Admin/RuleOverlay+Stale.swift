import FaultlineConfig

extension RuleOverlay {
    /// The changes that `apply` skips on `base` because the names they refer to are gone
    /// (typically after a reload of the file), one readable line each, sorted.
    func stale(base config: ProxyConfig) -> [String] {
        var upstreams = Set(config.upstreams.map(\.name))
        // With a forward-proxy listener, "" (the host the client asked for) always exists.
        if config.listeners.contains(where: { $0.forward != nil }) { upstreams.insert("") }
        let fileNames = Set(config.routes.map(\.name))
        var notes: [String] = []
        for rule in front + back where !upstreams.contains(rule.upstream) {
            notes.append("rule \"\(rule.name)\": upstream \"\(rule.upstream)\" no longer exists; the rule is not in effect")
        }
        for (name, rule) in replaced {
            if !fileNames.contains(name) {
                notes.append("replacement of \"\(name)\": the file no longer has a route of that name")
            } else if !upstreams.contains(rule.upstream) {
                notes.append("replacement of \"\(name)\": upstream \"\(rule.upstream)\" no longer exists; the file's route is in effect")
            }
        }
        for name in removed where !fileNames.contains(name) {
            notes.append("removal of \"\(name)\": the file no longer has a route of that name")
        }
        let effective = effectiveRoutes(base: config)
        let names = Set(effective.map(\.name))
        for name in disabledRules where !names.contains(name) {
            notes.append("disable of \"\(name)\": no such rule")
        }
        for (target, on) in faultSwitches {
            let verb = on ? "enable" : "disable"
            guard let route = effective.first(where: { $0.name == target.rule }) else {
                notes.append("\(verb) of \"\(target.rule)/\(target.fault)\": no such rule")
                continue
            }
            if !route.faults.contains(where: { $0.name == target.fault }) {
                notes.append("\(verb) of \"\(target.rule)/\(target.fault)\": the rule has no such fault")
            }
        }
        return notes.sorted()
    }
}
