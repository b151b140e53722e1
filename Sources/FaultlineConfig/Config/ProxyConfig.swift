/// A validated, immutable configuration snapshot for one proxy process. The fields the
/// command line and the admin API replace are settable inside the module only, so that a
/// changed copy (`overriding`, `replacingRoutes`, `overridingForward`) is `self` with those
/// fields set and keeps every other field, present or added later.
public struct ProxyConfig: Sendable, Equatable {
    /// Number of event loops; 0 means one per CPU the process may run on.
    public internal(set) var workers: Int
    /// Whether the workers are bound to CPUs, one each; read at start only.
    public let workerAffinity: WorkerAffinity
    /// Addresses the proxy accepts client connections on (never empty when loaded).
    public internal(set) var listeners: [ListenerConfig]
    /// The admin API listener, if configured.
    public internal(set) var admin: AdminConfig?
    /// Where to start the built-in demo origin, if anywhere.
    public let demoOrigin: DemoOriginConfig?
    /// Upstreams, sorted by name.
    public let upstreams: [UpstreamConfig]
    /// Routes in match order; the first match wins.
    public internal(set) var routes: [RouteConfig]
    /// Client-side timeouts.
    public let clientTimeouts: ClientTimeouts
    /// Size and count limits.
    public let limits: Limits
    /// Seed for fault randomness; nil lets the proxy pick one.
    public let seed: UInt64?
    /// Per-request fault control by header (off by default).
    public let faultHeaders: FaultHeadersConfig
    /// Traffic logging and redaction.
    public let log: LogConfig
    /// The in-memory HAR capture of recent exchanges.
    public let har: HARConfig
    /// HTTP/2 settings and flood limits.
    public let http2: HTTP2Config
    /// Limits and defaults of per-test sessions.
    public let sessions: SessionsConfig
    /// The global request journal.
    public let journal: JournalConfig
    /// Scenarios defined by the file (`scenarios`), by unique name; the admin API's stay apart.
    public let scenarios: [ScenarioConfig]

    /// Creates a configuration; upstreams are sorted by name so lookups and output are stable.
    public init(
        workers: Int = 0,
        workerAffinity: WorkerAffinity = .none,
        listeners: [ListenerConfig],
        admin: AdminConfig? = nil,
        demoOrigin: DemoOriginConfig? = nil,
        upstreams: [UpstreamConfig],
        routes: [RouteConfig],
        clientTimeouts: ClientTimeouts = ClientTimeouts(),
        limits: Limits = Limits(),
        seed: UInt64? = nil,
        faultHeaders: FaultHeadersConfig = FaultHeadersConfig(),
        log: LogConfig = LogConfig(),
        har: HARConfig = HARConfig(),
        http2: HTTP2Config = HTTP2Config(),
        sessions: SessionsConfig = SessionsConfig(),
        journal: JournalConfig = JournalConfig(),
        scenarios: [ScenarioConfig] = []
    ) {
        self.workers = workers
        self.workerAffinity = workerAffinity
        self.listeners = listeners
        self.admin = admin
        self.demoOrigin = demoOrigin
        self.upstreams = upstreams.sorted { $0.name < $1.name }
        self.routes = routes
        self.clientTimeouts = clientTimeouts
        self.limits = limits
        self.seed = seed
        self.faultHeaders = faultHeaders
        self.log = log
        self.har = har
        self.http2 = http2
        self.sessions = sessions
        self.journal = journal
        self.scenarios = scenarios
    }

    /// The upstream called `name`, if there is one.
    public func upstream(named name: String) -> UpstreamConfig? {
        upstreams.first { $0.name == name }
    }
}
