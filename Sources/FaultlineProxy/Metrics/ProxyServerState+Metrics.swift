/// Gathers `GET /metrics`.
extension ProxyServerState {
    /// The metrics now: every loop's shard added up by route name, the global fault
    /// counters, the upstreams' events and pools, connections and HTTP/2 counters. Each part
    /// is read on its own, so a scrape taken while traffic flows may be an exchange behind.
    func metricsSnapshot() -> MetricsSnapshot {
        let snapshot = self.snapshot
        var traffic: [String: RouteTraffic] = [:]
        var idle: [String: Int] = [:]
        var untracked = 0
        for shard in metrics.loopShards { untracked += shard.collect(routes: &traffic, idle: &idle) }
        var routes = snapshot.config.routes.map { traffic.removeValue(forKey: $0.name) ?? RouteTraffic(name: $0.name) }
        let unrouted = traffic.removeValue(forKey: "") ?? RouteTraffic(name: "")
        routes += traffic.values.sorted { $0.name < $1.name }
        routes.append(unrouted)
        // Configured upstreams in config order, then `forward`.
        let names = snapshot.config.upstreams.map(\.name) + (snapshot.servesForwardProxy ? [ProxyMetrics.forwardUpstream] : [])
        let events = metrics.upstreamEvents(retaining: snapshot.metricsUpstreamNames)
        let upstreams = names.map {
            MetricsSnapshot.Upstream(name: $0, events: events[$0] ?? UpstreamEvents(), idleConnections: idle[$0] ?? 0)
        }
        return MetricsSnapshot(routes: routes, untrackedRequests: untracked,
                               faults: [FaultSeries(scope: "global", stats: snapshot.faults.stats())],
                               upstreams: upstreams, activeConnections: connectionCount,
                               workerConnections: connectionsPerWorker, http2: http2Counters.counts,
                               configGeneration: snapshot.generation, version: FaultlineVersion.current)
    }
}
