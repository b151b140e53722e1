import FaultlineConfig
import FaultlineSync
import Synchronization

/// One per-test session: its rules apply only to requests that carry its id in
/// `X-Faultline-Session` (or come from one of its client addresses), with their own
/// counters, random streams and journal. Expires after `ttl` without use.
final class Session: Sendable {
    /// The request header that puts a request in a session.
    static let header = "X-Faultline-Session"
    /// Most rules one session holds.
    static let maxRules = 100

    let id: String
    let name: String
    let ttlSeconds: Int
    let seed: UInt64
    let clients: [String]
    /// Monotonic creation time (ns): the journal's origin.
    let created: UInt64
    /// The session's exchanges.
    let journal: RequestJournal
    /// Requests that ran in the session.
    let requests = Atomic<Int>(0)
    /// Monotonic time (ns) of the last request or admin call.
    private let lastUse: Atomic<UInt64>
    /// The compiled rules, swapped whole; changes compile while holding it (a session's
    /// rules compile in microseconds, and only this session's requests wait).
    private let compiled: TracedMutex<SessionRuleSet>
    /// The session's scenarios: timelines that only its requests see.
    let scenarios: ScenarioBoard

    init(id: String, request: SessionRequest, seed: UInt64, journalCapacity: Int, config: ProxyConfig, now: UInt64,
         reporter: ScenarioReporter = ScenarioReporter()) {
        self.id = id
        name = request.name
        ttlSeconds = request.ttlSeconds
        self.seed = seed
        // Two spellings of one address are one client; a set keeps this linear in the list.
        var seen: Set<String> = []
        clients = request.clients.map(ClientAddressText.canonical).filter { seen.insert($0).inserted }
        created = now
        journal = RequestJournal(capacity: journalCapacity, origin: now)
        lastUse = Atomic(now)
        compiled = TracedMutex(SessionRuleSet(rules: [], config: config, seed: seed, previous: nil))
        scenarios = ScenarioBoard(session: id, seed: seed, config: config, reporter: reporter)
    }

    /// The rules in effect.
    var ruleSet: SessionRuleSet { compiled.withLock { $0 } }

    /// Notes a use at `now` (ns): the idle time-to-live restarts.
    func touch(now: UInt64) {
        lastUse.store(now, ordering: .relaxed)
    }

    /// Whether the session went unused for longer than its time-to-live.
    func isExpired(now: UInt64) -> Bool {
        let last = lastUse.load(ordering: .relaxed)
        return now > last && now - last > UInt64(ttlSeconds) * 1_000_000_000
    }

    /// Whole seconds left before it expires unused.
    func expiresIn(now: UInt64) -> Int {
        let last = lastUse.load(ordering: .relaxed)
        let idle = now > last ? (now - last) / 1_000_000_000 : 0
        return max(0, ttlSeconds - Int(min(idle, UInt64(ttlSeconds))))
    }

    /// Changes the rules with `edit`, then compiles them against `config`; nothing changes
    /// when `edit` throws.
    func changeRules<Failure: Error>(config: ProxyConfig, _ edit: (inout [RouteConfig]) throws(Failure) -> Void) throws(Failure) {
        try compiled.withLock { current throws(Failure) in
            var rules = current.rules
            try edit(&rules)
            current = SessionRuleSet(rules: rules, config: config, seed: seed, previous: current)
        }
    }

    /// Compiles the rules against a new configuration (a reload): counters carry over.
    func recompile(config: ProxyConfig) {
        compiled.withLock { current in
            current = SessionRuleSet(rules: current.rules, config: config, seed: seed, previous: current)
        }
        scenarios.recompile(config: config)
    }

    /// Restarts the rules' counters, sequences, random streams and windows; clears the journal.
    func reset() {
        ruleSet.decider.resetCounters()
        journal.clear()
    }
}
