import FaultlineConfig

/// Rule changes made through the admin API, kept apart from the file's configuration so that
/// a reload of the file keeps them. Changes refer to rules by name; a change whose name no
/// longer exists after a reload is skipped by `apply` and listed by `stale(base:)`.
/// Change it through the methods of `RuleOverlay+Changes.swift`, which check names.
struct RuleOverlay: Sendable, Equatable {
    /// Runtime rules placed before the file's routes, in match order.
    var front: [RouteConfig] = []
    /// Runtime rules placed after the file's routes, in match order.
    var back: [RouteConfig] = []
    /// File routes replaced whole, by name.
    var replaced: [String: RouteConfig] = [:]
    /// File routes removed, by name.
    var removed: Set<String> = []
    /// Rules switched off: their faults do not fire, the route still proxies.
    var disabledRules: Set<String> = []
    /// Faults switched on or off by rule and fault name, overriding their `enabled`.
    var faultSwitches: [FaultSwitch: Bool] = [:]

    /// Names a fault of a rule.
    struct FaultSwitch: Hashable, Sendable {
        let rule: String
        let fault: String
    }

    /// Whether `name` is a rule added at runtime (not a file route, replaced or not).
    func isRuntimeRule(_ name: String) -> Bool {
        front.contains { $0.name == name } || back.contains { $0.name == name }
    }

    /// Whether the file route `name` is replaced by a runtime definition.
    func isReplaced(_ name: String) -> Bool {
        replaced[name] != nil
    }

    /// Whether the rule `name` is switched on.
    func isEnabled(_ name: String) -> Bool {
        !disabledRules.contains(name)
    }

    /// Whether each fault of the rule `route` (as in effect) is switched on by its own switch,
    /// whatever the rule's: its switch through the admin API, else its definition's
    /// `enabled`. A fault fires when both it and its rule are on.
    func ownSwitches(of route: RouteConfig, base config: ProxyConfig) -> [Bool] {
        let definition = front.first { $0.name == route.name } ?? back.first { $0.name == route.name }
            ?? replaced[route.name] ?? config.routes.first { $0.name == route.name }
        return route.faults.map { fault in
            faultSwitches[FaultSwitch(rule: route.name, fault: fault.name)]
                ?? definition?.faults.first { $0.name == fault.name }?.enabled ?? fault.enabled
        }
    }

    /// The file's configuration with the runtime changes applied.
    func apply(to config: ProxyConfig) throws(ConfigErrors) -> ProxyConfig {
        config.replacingRoutes(effectiveRoutes(base: config))
    }

    /// The routes in match order: runtime rules at the front, the file's routes (minus the
    /// removed, replaced in place), runtime rules at the back; switches applied. Runtime
    /// definitions naming an upstream the configuration lacks are skipped.
    func effectiveRoutes(base config: ProxyConfig) -> [RouteConfig] {
        let upstreams = Set(config.upstreams.map(\.name))
        // With a forward-proxy listener, a rule naming no upstream goes to the host asked for.
        let forwardMode = config.listeners.contains { $0.forward != nil }
        let usable = { (route: RouteConfig) in upstreams.contains(route.upstream) || (forwardMode && route.upstream.isEmpty) }
        let runtime = Set((front + back).filter(usable).map(\.name))
        let file = config.routes.compactMap { route -> RouteConfig? in
            if removed.contains(route.name) || runtime.contains(route.name) { return nil }
            if let replacement = replaced[route.name], usable(replacement) { return replacement }
            return route
        }
        return (front.filter(usable) + file + back.filter(usable)).map(switched)
    }

    /// The rule with its switches applied: a disabled rule's faults are all off.
    private func switched(_ route: RouteConfig) -> RouteConfig {
        let ruleOn = isEnabled(route.name)
        let faults = route.faults.map { fault in
            let on = ruleOn && (faultSwitches[FaultSwitch(rule: route.name, fault: fault.name)] ?? fault.enabled)
            return on == fault.enabled ? fault : FaultSpec(name: fault.name, kind: fault.kind, when: fault.when, enabled: on)
        }
        return faults == route.faults ? route : RouteConfig(name: route.name, match: route.match, upstream: route.upstream, faults: faults)
    }
}
