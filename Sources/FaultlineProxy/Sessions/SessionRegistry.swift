import FaultlineConfig
import FaultlineSync
import Synchronization

/// The live sessions of the process, held by `ProxyServerState` beside (not inside) the
/// config snapshot, so they survive reloads and rule changes. A request without the session
/// header pays one relaxed load (no client address claimed) before any lock.
final class SessionRegistry: Sendable {
    private let directory = TracedMutex(SessionDirectory())
    /// Client addresses claimed by live sessions; 0 spares unclaimed requests the lock.
    private let claimed = Atomic<Int>(0)
    /// Live (possibly expired, not yet swept) sessions.
    private let live = Atomic<Int>(0)
    /// Monotonic time (ns) of the next periodic sweep.
    private let nextSweep = Atomic<UInt64>(0)
    /// Where the sessions' scenarios report phase changes and set their timers.
    let reporter: ScenarioReporter

    init(reporter: ScenarioReporter = ScenarioReporter()) {
        self.reporter = reporter
    }

    /// Sessions created and not yet ended or swept, without waiting for the lock (a gauge;
    /// `count(now:)` sweeps expired ones first).
    var approximateCount: Int { live.load(ordering: .relaxed) }

    /// Creates a session, or refuses when `limits.max` sessions are live or a client
    /// address is claimed by another live session.
    func create(_ request: SessionRequest, config: ProxyConfig, now: UInt64) throws(SessionRefusal) -> Session {
        var generator = SystemRandomNumberGenerator()
        let seed = request.seed ?? (generator.next() & ((1 << 53) - 1))
        let session = Session(id: Self.newID(), request: request, seed: seed,
                              journalCapacity: config.sessions.journalCapacity, config: config, now: now,
                              reporter: reporter)
        try directory.withLock { directory throws(SessionRefusal) in
            directory.sweep(now: now)
            guard directory.order.count < config.sessions.max else { throw .limit(config.sessions.max) }
            for client in session.clients {
                if let owner = directory.byClient[client] { throw .clientClaimed(address: client, by: owner.id) }
            }
            directory.insert(session)
            publishCounts(directory)
        }
        return session
    }

    /// The live session `id`, renewed; nil when unknown or expired (an expired one is removed).
    func session(id: String, now: UInt64) -> Session? {
        directory.withLock { directory in
            guard let session = directory.byID[id] else { return nil }
            guard !session.isExpired(now: now) else {
                directory.remove(id)
                publishCounts(directory)
                return nil
            }
            session.touch(now: now)
            return session
        }
    }

    /// The live session claiming client address `ip`, renewed; nil at the cost of one load
    /// when no session claims any address.
    @inline(__always)
    func session(client ip: String, now: UInt64) -> Session? {
        guard claimed.load(ordering: .relaxed) > 0 else { return nil }
        return directory.withLock { directory in
            guard let session = directory.byClient[ip] else { return nil }
            guard !session.isExpired(now: now) else {
                directory.remove(session.id)
                publishCounts(directory)
                return nil
            }
            session.touch(now: now)
            return session
        }
    }

    /// Ends session `id`; false when it is unknown (or had expired).
    func remove(id: String, now: UInt64) -> Bool {
        directory.withLock { directory in
            directory.sweep(now: now)
            let removed = directory.remove(id)
            publishCounts(directory)
            return removed
        }
    }

    /// The live sessions in creation order (expired ones are swept first).
    func all(now: UInt64) -> [Session] {
        directory.withLock { directory in
            directory.sweep(now: now)
            publishCounts(directory)
            return directory.order
        }
    }

    /// Live sessions now.
    func count(now: UInt64) -> Int { all(now: now).count }

    /// Removes expired sessions at most once a second (`now` in ns), so an abandoned session's
    /// rules and journal are freed even when nobody asks for it again; the loops' deadline
    /// sweep calls it, and all but one call per second cost one atomic load.
    func sweepIfDue(now: UInt64) {
        let due = nextSweep.load(ordering: .relaxed)
        guard now >= due, nextSweep.compareExchange(expected: due, desired: now &+ 1_000_000_000, ordering: .relaxed).exchanged,
              live.load(ordering: .relaxed) > 0 else { return }
        directory.withLock { directory in
            directory.sweep(now: now)
            publishCounts(directory)
        }
    }

    /// Compiles every session's rules against a new configuration (a reload or rule change).
    func recompile(config: ProxyConfig) {
        for session in directory.withLock({ $0.order }) { session.recompile(config: config) }
    }

    private func publishCounts(_ directory: SessionDirectory) {
        claimed.store(directory.byClient.count, ordering: .relaxed)
        live.store(directory.order.count, ordering: .relaxed)
    }

    /// 24 characters of [a-z0-9] from the system's random source: about 124 bits, safe in
    /// a header and a URL.
    static func newID() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8)
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        for _ in 0..<24 { bytes.append(alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))]) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
