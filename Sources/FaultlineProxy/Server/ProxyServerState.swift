import FaultlineConfig
import FaultlineIO
import FaultlineSync
import Synchronization

/// What every loop of the proxy shares: the current config snapshot, connection accounting,
/// pin outcomes, HTTP/2 counters and the event sink. Everything here is safe to touch from any thread.
///
/// The running configuration is the last one loaded from the file (or command line) with
/// the admin API's rule changes laid over it, so a SIGHUP reload keeps runtime rules.
final class ProxyServerState: Sendable {
    /// Open client connections.
    let connections: ConnectionCounter
    /// The soft descriptor limit the connection ceiling was computed from.
    private let descriptorLimit: Int
    /// Pin outcomes per upstream.
    let pinStatus = PinStatusBoard()
    /// Pin failure reports apps sent (`POST /pins/reports`); outside the snapshot, so they survive reloads.
    let pinReports = PinReportBoard()
    /// HTTP/2 connection, stream and reset counts (see `ProxyServerState+HTTP2Counters`).
    let http2Counters = HTTP2Counters()
    /// What `GET /metrics` reads besides the above: the loops' shards and per-upstream events.
    let metrics = ProxyMetrics()
    /// Where scenario phase changes are reported and timed phases set their timers.
    let scenarioReporter: ScenarioReporter
    /// Per-test sessions; outside the snapshot, so they survive reloads.
    let sessions: SessionRegistry
    /// The global scenarios (the file's and the admin API's); outside the snapshot, so a
    /// running timeline survives reloads.
    let scenarios: ScenarioBoard
    /// Faultline's own listening sockets (proxy and admin): a forward-proxy request to one is refused.
    let ownAddresses = TracedMutex<[SocketAddress]>([])
    /// Open CONNECT tunnels and intercepted connections, across loops (`forward.max_tunnels`).
    let forwardTunnels = Atomic<Int>(0)
    /// Hosts whose intercepted certificate clients refused (`GET /intercept`).
    let interceptRefusals = InterceptRefusals()
    /// The global request journal (`journal.capacity`, 0 = off).
    let journal: RequestJournal
    /// The dashboard's recent exchanges and per-second traffic (kept while an admin listener exists).
    let live = LiveFeed()
    /// Where notable events go (the executable prints them).
    private let eventSink: @Sendable (ProxyEvent) -> Void

    private struct Configuration {
        var snapshot: ConfigSnapshot
        var base: ProxyConfig
        var overlay = RuleOverlay()
        var generation: Int
    }

    /// Serializes changes; held while a new snapshot compiles (DNS, certificates, files),
    /// which happens on the admin queue or the signal thread. Event loops never take it.
    private let current: TracedMutex<Configuration>
    /// The snapshot in effect, held only to copy the reference: what loops may touch
    /// (operator events, upstream logging) without ever waiting for a compile.
    private let published: TracedMutex<ConfigSnapshot>
    private let loops = TracedMutex<[LoopContext]>([])

    init(snapshot: ConfigSnapshot, events: @escaping @Sendable (ProxyEvent) -> Void,
         connections: ConnectionCounter = ConnectionCounter(), descriptorLimit: Int = Int.max) {
        self.connections = connections
        self.descriptorLimit = descriptorLimit
        current = TracedMutex(Configuration(snapshot: snapshot, base: snapshot.config, generation: snapshot.generation))
        published = TracedMutex(snapshot)
        journal = RequestJournal(capacity: snapshot.config.journal.capacity, origin: MonotonicClock.nanoseconds())
        eventSink = events
        let reporter = ScenarioReporter()
        scenarioReporter = reporter
        sessions = SessionRegistry(reporter: reporter)
        var generator = SystemRandomNumberGenerator()
        scenarios = ScenarioBoard(session: nil, seed: snapshot.config.seed ?? generator.next(), config: snapshot.config,
                                  reporter: reporter)
    }

    /// Reports `event`, its texts redacted with the running configuration's rules first: a
    /// TLS error, pin report or reload error is no more allowed to carry a secret than a log
    /// record is.
    func events(_ event: ProxyEvent) {
        eventSink(event.redacted(by: snapshot.log.policy.redactor))
    }

    /// Reports what reading the upstreams' app pin files found worth a look (at start and
    /// on every reload, as the files are read again).
    func reportAppPinWarnings(of snapshot: ConfigSnapshot) {
        for item in snapshot.appPinWarnings {
            events(.pinWarning(upstream: item.upstream, message: item.warning.description))
        }
    }

    /// Tells the operator when `limits.max_connections`, written in the file, is above what
    /// the descriptor limit allows; the lower ceiling applies. The default is not reported: it
    /// yields quietly, so a shipped config starts clean under any `ulimit -n`.
    func warnIfCapped(_ limits: Limits) {
        guard limits.maxConnectionsIsExplicit, limits.maxConnections > connections.ceiling else { return }
        eventSink(.connectionsCapped(configured: limits.maxConnections, effective: connections.ceiling,
                                     descriptorLimit: descriptorLimit))
    }

    /// The loops that receive new snapshots; set once at start.
    func attach(_ contexts: [LoopContext]) {
        loops.withLock { $0 = contexts }
        guard let first = contexts.first else {
            scenarioReporter.connect(loop: nil, deliver: nil)
            return
        }
        scenarioReporter.connect(loop: first.loop) { [weak self] transition in self?.report(transition) }
        // Once timers can be set: the file's scenarios with "start": true begin now.
        scenarios.syncFile(snapshot.config.scenarios, now: MonotonicClock.nanoseconds())
    }

    /// The snapshot new exchanges use; never waits for a compile in progress.
    var snapshot: ConfigSnapshot { published.withLock { $0 } }

    /// The configuration last loaded from the file (or command line), without runtime changes.
    /// Waits for a compile in progress: not for event loops.
    var base: ProxyConfig { current.withLock { $0.base } }

    /// The runtime rule changes in effect. Waits for a compile in progress: not for event loops.
    var overlay: RuleOverlay { current.withLock { $0.overlay } }

    /// Client connections open now.
    var connectionCount: Int { connections.value }

    /// Client connections each worker (event loop) holds now, by loop index.
    var connectionsPerWorker: [Int] {
        loops.withLock { $0.map { $0.assignedClients.load(ordering: .relaxed) } }
    }

    /// Makes `config` (from the file) the base; runtime rule changes stay on top of it.
    @discardableResult
    func reload(base config: ProxyConfig) throws(ConfigErrors) -> ConfigSnapshot {
        try update { state throws(ConfigErrors) in state.base = config }
    }

    /// Changes the runtime rules; nothing changes if the result does not compile.
    @discardableResult
    func updateOverlay(_ change: (inout RuleOverlay) throws(ConfigErrors) -> Void) throws(ConfigErrors) -> ConfigSnapshot {
        try update { state throws(ConfigErrors) in try change(&state.overlay) }
    }

    /// Compiles the changed configuration, then swaps it in everywhere: new exchanges use it,
    /// exchanges in flight finish on the snapshot they started with. Blocks for the compile:
    /// call it off the event loops (the admin API's queue, the signal thread).
    private func update(_ change: (inout Configuration) throws(ConfigErrors) -> Void) throws(ConfigErrors) -> ConfigSnapshot {
        var previousLimits = Limits()
        let next: ConfigSnapshot = try current.withLock { state throws(ConfigErrors) -> ConfigSnapshot in
            previousLimits = state.snapshot.config.limits
            var changed = state
            try change(&changed)
            let effective = try changed.overlay.apply(to: changed.base)
            let snapshot = try ConfigSnapshot(config: effective, generation: state.generation + 1, previous: state.snapshot,
                                              confinedBodyFiles: changed.overlay.bodyFiles)
            changed.snapshot = snapshot
            changed.generation = snapshot.generation
            state = changed
            // Published while still holding the compile lock, so snapshots appear in order.
            // The replaced snapshot is released outside that lock (its deinit frees TLS contexts).
            let replaced = published.withLock { published -> ConfigSnapshot in
                defer { published = snapshot }
                return published
            }
            _ = replaced
            return snapshot
        }
        for context in loops.withLock({ $0 }) {
            context.loop.execute { context.snapshot = next }
        }
        sessions.recompile(config: next.config)
        scenarios.recompile(config: next.config)
        scenarios.syncFile(next.config.scenarios, now: MonotonicClock.nanoseconds())
        journal.resize(to: next.config.journal.capacity)
        events(.reloaded(generation: next.generation))
        reportAppPinWarnings(of: next)
        let limits = next.config.limits
        if (limits.maxConnections, limits.maxConnectionsIsExplicit) != (previousLimits.maxConnections, previousLimits.maxConnectionsIsExplicit) {
            warnIfCapped(limits)
        }
        return next
    }
}
