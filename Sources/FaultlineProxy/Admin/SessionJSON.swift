import Synchronization

/// A session as the admin API shows it (`POST /sessions`, `GET /sessions[/{id}]`).
struct SessionJSON: Encodable {
    let id: String
    let name: String
    let ttlS: Int
    let seed: UInt64
    let clients: [String]
    let header: String
    let rules: [RuleJSON]
    /// Rules skipped because their upstream is not in the running configuration.
    let stale: [String]
    let requests: Int
    let expiresInS: Int

    enum CodingKeys: String, CodingKey {
        case id, name, seed, clients, header, rules, stale, requests
        case ttlS = "ttl_s", expiresInS = "expires_in_s"
    }

    init(_ session: Session, now: UInt64) {
        id = session.id
        name = session.name
        ttlS = session.ttlSeconds
        seed = session.seed
        clients = session.clients
        header = Session.header
        let ruleSet = session.ruleSet
        rules = SessionJSON.rules(of: ruleSet)
        stale = ruleSet.stale
        requests = session.requests.load(ordering: .relaxed)
        expiresInS = session.expiresIn(now: now)
    }

    /// The rules of `ruleSet` with their counters, in match order.
    static func rules(of ruleSet: SessionRuleSet) -> [RuleJSON] {
        let stats = ruleSet.decider.stats()
        return ruleSet.rules.enumerated().map { index, rule in
            RuleJSON(rule, source: "session", enabled: true, stats: stats.filter { $0.routeIndex == index })
        }
    }
}
