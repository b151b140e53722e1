import FaultlineConfig

/// A rule as the admin API shows it: the config file's keys and values, plus where it came
/// from (`source`), whether it is on, each fault's `kind` and its counters.
struct RuleJSON: Encodable {
    let name: String
    let match: RouteMatchJSON
    /// Absent for a session's rule that takes the global route's upstream.
    let upstream: String?
    /// "file", or "runtime" for rules added or replaced through the admin API.
    let source: String
    let enabled: Bool
    let faults: [FaultJSON]

    /// `route` with its counters from `stats` (the rows of this route). `faultsEnabled` are
    /// the faults' own switches (by fault index; the route's own values when absent): a fault
    /// of a disabled rule shows its own switch, and fires once the rule is enabled.
    init(_ route: RouteConfig, source: String, enabled: Bool, faultsEnabled: [Bool]? = nil, stats: [FaultStats]) {
        name = route.name
        match = RouteMatchJSON(route.match)
        upstream = route.upstream.isEmpty ? nil : route.upstream
        self.source = source
        self.enabled = enabled
        faults = route.faults.enumerated().map { index, fault in
            let row = stats.first { $0.faultIndex == index }
            let on = faultsEnabled.flatMap { index < $0.count ? $0[index] : nil } ?? fault.enabled
            return FaultJSON(fault, enabled: on,
                             stats: FaultJSON.Counters(matched: row?.matched ?? 0, fired: row?.fired ?? 0, active: row?.active ?? 0))
        }
    }
}
