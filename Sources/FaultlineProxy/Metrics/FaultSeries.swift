import FaultlineConfig

/// The `faultline_faults_fired_total` series of one scope: fault counters summed by rule and
/// fault name (sessions' rules of the same name, and a rule's rows under two route indexes,
/// are one series), in first-seen order. At most `limit` series: what fired on a rule and
/// fault past them counts only in `untracked`, as requests past a loop's route rows do.
struct FaultSeries {
    /// A rule and fault name.
    struct Key: Hashable {
        let route: String
        let fault: String
    }

    /// Series of the session scope. The global scope's are bounded by the configuration
    /// (rules × `RouteConfig.maxFaults`); the sessions' would grow with every session.
    static let maxSessionSeries = 256

    /// `global` or `session`.
    let scope: String
    /// The series, in first-seen order.
    private(set) var keys: [Key] = []
    private(set) var fired: [Key: Int] = [:]
    /// Firings of the rules and faults left without a series.
    private(set) var untracked = 0

    /// Sums `stats` (in the order rules are listed: sessions in creation order, so a series
    /// once shown is never displaced by a newer session's) into at most `limit` series.
    init(scope: String, stats: [FaultStats], limit: Int = .max) {
        self.scope = scope
        for row in stats {
            let key = Key(route: row.routeName, fault: row.faultName)
            if fired[key] == nil {
                guard keys.count < limit else {
                    untracked += row.fired
                    continue
                }
                keys.append(key)
            }
            fired[key, default: 0] += row.fired
        }
    }
}
