import FaultlineConfig

/// The admin API's changes. Each checks the names against `current` (the effective
/// configuration) and refuses with a 404 or 409 before changing anything.
extension RuleOverlay {
    /// Adds a runtime rule at `position`; 409 if a rule of that name is in effect.
    mutating func add(_ rule: RouteConfig, at position: ConfigLoader.RulePosition, current: ProxyConfig) throws(AdminRefusal) {
        if current.routes.contains(where: { $0.name == rule.name }) {
            throw AdminRefusal(409, "a rule named \(quoted(rule.name)) exists; replace it with PUT /rules/\(rule.name) or remove it first",
                               field: "rule.name")
        }
        clearSwitches(of: rule.name)
        switch position {
        case .start: front.insert(rule, at: 0)
        case .end: back.append(rule)
        }
    }

    /// Replaces the rule of that name whole (a runtime rule in place, a file route by an
    /// override), or adds it at the start when none is in effect; returns whether it added.
    mutating func replace(_ rule: RouteConfig, current: ProxyConfig) -> Bool {
        clearSwitches(of: rule.name)
        if let index = front.firstIndex(where: { $0.name == rule.name }) {
            front[index] = rule
        } else if let index = back.firstIndex(where: { $0.name == rule.name }) {
            back[index] = rule
        } else if current.routes.contains(where: { $0.name == rule.name }) {
            replaced[rule.name] = rule
        } else {
            front.insert(rule, at: 0)
            return true
        }
        return false
    }

    /// Removes the rule `name`, runtime or from the file; 404 if none is in effect.
    mutating func remove(_ name: String, current: ProxyConfig) throws(AdminRefusal) {
        try requireRule(name, current)
        clearSwitches(of: name)
        if isRuntimeRule(name) {
            front.removeAll { $0.name == name }
            back.removeAll { $0.name == name }
        } else {
            replaced[name] = nil
            removed.insert(name)
        }
    }

    /// Switches the rule `name` on or off; 404 if none is in effect.
    mutating func setEnabled(_ on: Bool, rule name: String, current: ProxyConfig) throws(AdminRefusal) {
        try requireRule(name, current)
        if on { disabledRules.remove(name) } else { disabledRules.insert(name) }
    }

    /// Switches one fault of the rule `name` on or off; 404 if the rule or fault is unknown.
    mutating func setEnabled(_ on: Bool, rule name: String, fault: String, current: ProxyConfig) throws(AdminRefusal) {
        let route = try requireRule(name, current)
        guard route.faults.contains(where: { $0.name == fault }) else {
            let known = route.faults.map(\.name)
            throw AdminRefusal(404, "rule \(quoted(name)) has no fault \(quoted(fault)) (known: \(known.isEmpty ? "none" : known.joined(separator: ", ")))",
                               field: "fault")
        }
        faultSwitches[FaultSwitch(rule: name, fault: fault)] = on
    }

    @discardableResult
    private func requireRule(_ name: String, _ current: ProxyConfig) throws(AdminRefusal) -> RouteConfig {
        guard let route = current.routes.first(where: { $0.name == name }) else {
            let known = current.routes.map(\.name)
            throw AdminRefusal(404, "no rule named \(quoted(name)) (known: \(known.isEmpty ? "none" : known.joined(separator: ", ")))",
                               field: "name")
        }
        return route
    }

    /// A new definition starts with its own `enabled` values.
    private mutating func clearSwitches(of name: String) {
        disabledRules.remove(name)
        faultSwitches = faultSwitches.filter { $0.key.rule != name }
    }

    private func quoted(_ name: String) -> String {
        "\"\(name)\""
    }
}
