import FaultlineConfig
import FaultlineHTTP

/// A session's rules compiled for matching: their own route table and their own fault
/// decider (the session's seed, its own counters). Immutable; a change or a reload compiles
/// a new one, which inherits the counters of unchanged rules.
final class SessionRuleSet: Sendable {
    /// The rules in match order, as given (a rule's `upstream` is "" when it takes the global route's).
    let rules: [RouteConfig]
    /// Rules whose upstream is not in the running configuration: skipped until it returns.
    let stale: [String]
    /// Decides the faults of the session's rules.
    let decider: FaultDecider
    private let table: RouteTable
    /// By rule index: whether the rule takes the upstream of the global route.
    private let inherits: [Bool]

    /// Compiles `rules` against `config`'s upstreams; `previous` (the set it replaces) lends
    /// its counters to unchanged rules.
    init(rules: [RouteConfig], config: ProxyConfig, seed: UInt64, previous: SessionRuleSet?) {
        var entries: [(match: RouteMatch, route: CompiledRoute)] = []
        var stale: [String] = []
        var inherits: [Bool] = []
        for (index, rule) in rules.enumerated() {
            inherits.append(rule.upstream.isEmpty)
            // A rule without its own upstream still needs one to compile; it is replaced per request.
            guard let upstream = rule.upstream.isEmpty ? (config.upstreams.first ?? .requestedHost)
                                                        : config.upstream(named: rule.upstream) else {
                stale.append(rule.name)
                continue
            }
            entries.append((rule.match, CompiledRoute(index: index, name: rule.name, upstream: upstream, faults: rule.faults)))
        }
        self.rules = rules
        self.stale = stale
        self.inherits = inherits
        table = RouteTable(entries: entries)
        decider = FaultDecider(seed: seed, routes: table.routes, clock: FaultDecider.monotonicMilliseconds,
                               inheriting: previous?.decider)
    }

    /// The session rule for a request, with the upstream it goes to: the rule's own, or that
    /// of `global`'s route for the request. Nil when no rule matches (or the rule needs a
    /// global route and none matches): the global routes decide.
    func route(_ head: HTTPHead, client: String, global: RouteTable) -> CompiledRoute? {
        guard let rule = table.match(head, client: client) else { return nil }
        guard rule.index < inherits.count, inherits[rule.index] else { return rule }
        guard let route = global.match(head, client: client) else { return nil }
        return CompiledRoute(index: rule.index, name: rule.name, upstream: route.upstream, faults: rule.faults)
    }
}
