import FaultlineConfig

/// Everything one `GET /metrics` answer shows, gathered at one moment
/// (`ProxyServerState.metricsSnapshot()`), then rendered by `MetricsRenderer`.
struct MetricsSnapshot {
    /// One configured upstream's events and idle pool.
    struct Upstream {
        let name: String
        let events: UpstreamEvents
        /// Idle HTTP/1 connections across the loops' pools.
        let idleConnections: Int
    }

    /// Requests per route: the configured routes in order, other names, then unrouted ("").
    var routes: [RouteTraffic]
    /// Exchanges no route row was left for (`RouteMetricsTable.maxExtraRows`).
    var untrackedRequests: Int
    /// Fault counters per scope: `global` for the proxy's rules, then `session` for sessions'
    /// rules (added by whoever owns the sessions; every session's rows in one scope, summed by
    /// rule and fault name, so no session id becomes a label).
    var faults: [FaultSeries]
    /// The running configuration's upstreams, in configuration order.
    var upstreams: [Upstream]
    /// Client connections open now.
    var activeConnections: Int
    /// Client connections each worker holds now, by worker index.
    var workerConnections: [Int] = []
    /// Live sessions; set by the admin router (0 while nothing reports sessions).
    var sessionsActive = 0
    /// The global scenarios: name, current phase (0-based; -1 when not running) and phase
    /// changes; set by the admin router.
    var scenarios: [(name: String, phase: Int, transitions: Int)] = []
    /// Phase changes of sessions' scenarios, all sessions together; set by the admin router.
    var sessionScenarioTransitions = 0
    /// Pin failure reports by host name label and format; set by the admin router.
    var pinReports: [PinReportBoard.Count] = []
    /// The HTTP/2 counters of `GET /stats`.
    var http2: HTTP2Counters.Counts
    /// The running configuration's generation (1 at start, +1 per reload or rule change).
    var configGeneration: Int
    /// `FaultlineVersion.current`.
    var version: String
}
