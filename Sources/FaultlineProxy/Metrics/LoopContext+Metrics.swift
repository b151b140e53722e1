/// What the loop reports to `GET /metrics`: each exchange as it ends, its pools as it sweeps.
extension LoopContext {
    /// Counts an exchange that just ended, however it ended (completed, refused, failed, cut):
    /// its route, the status its client got and its duration, from `Exchange.startedAt` to
    /// now; and its upstream's connect or TLS error, if that is how it failed. Call once per
    /// exchange, from `exchangeEnded`.
    func countEnded(_ exchange: Exchange) {
        let now = loop.now
        let started = exchange.startedAt
        let elapsed = started > 0 && now > started ? now - started : 0
        // Field by field: a copy of the whole route would retain every reference it holds.
        metrics.record(routeIndex: exchange.route?.index ?? -1, routeName: exchange.route?.name ?? "",
                       status: exchange.clientStatus, nanoseconds: elapsed)
        guard let failure = exchange.machine.failure?.error, failure == .upstreamConnect || failure == .upstreamTLS,
              let upstream = exchange.route?.upstream else { return }
        // A forward proxy's hosts are any the clients name: one series for all of them keeps
        // the metrics bounded (the log and journal name the host).
        state.metrics.upstreamFailed(upstream.isForwarded ? ProxyMetrics.forwardUpstream : upstream.name, tls: failure == .upstreamTLS)
    }

    /// Publishes the idle connections of this loop's pool per configured upstream, and those
    /// of its pools for forward-proxy hosts as one count; from the sweep, so a scrape never
    /// waits for a loop.
    func publishIdleConnections() {
        let snapshot = self.snapshot
        var idle = snapshot.config.upstreams.map { upstream -> (upstream: String, count: Int) in
            guard let endpoint = snapshot.endpoint(ofUpstream: upstream.name) else { return (upstream.name, 0) }
            return (upstream.name, pool.idleCount(endpoint.address, security: endpoint.security))
        }
        if snapshot.servesForwardProxy { idle.append((ProxyMetrics.forwardUpstream, forwardPools.idleConnections)) }
        metrics.publishIdle(idle)
    }

    /// The loop took `snapshot`: request counts follow route names, and upstream events of
    /// upstreams it no longer configures are dropped.
    func rebaseMetrics(on snapshot: ConfigSnapshot) {
        metrics.rebase(routes: snapshot.config.routes.map(\.name))
        state.metrics.retainUpstreams(snapshot.metricsUpstreamNames)
    }
}
