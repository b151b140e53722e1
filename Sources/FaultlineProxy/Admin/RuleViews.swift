import FaultlineConfig

/// The effective rules of one snapshot as the admin API shows them, with their source
/// (file or runtime), switches and counters.
struct RuleViews {
    let snapshot: ConfigSnapshot
    let overlay: RuleOverlay
    /// The configuration from the file, where file rules' own fault switches are defined.
    let base: ProxyConfig

    /// Every rule in match order.
    func all() -> [RuleJSON] {
        let stats = snapshot.faults.stats()
        return snapshot.config.routes.enumerated().map { index, route in
            view(route, stats: stats.filter { $0.routeIndex == index })
        }
    }

    /// The rule called `name`, if it is in effect.
    func rule(named name: String) -> RuleJSON? {
        guard let index = snapshot.config.routes.firstIndex(where: { $0.name == name }) else { return nil }
        let stats = snapshot.faults.stats().filter { $0.routeIndex == index }
        return view(snapshot.config.routes[index], stats: stats)
    }

    /// "runtime" for rules added or replaced through the admin API, else "file".
    func source(of name: String) -> String {
        overlay.isRuntimeRule(name) || overlay.isReplaced(name) ? "runtime" : "file"
    }

    private func view(_ route: RouteConfig, stats: [FaultStats]) -> RuleJSON {
        RuleJSON(route, source: source(of: route.name), enabled: overlay.isEnabled(route.name),
                 faultsEnabled: overlay.ownSwitches(of: route, base: base), stats: stats)
    }
}
