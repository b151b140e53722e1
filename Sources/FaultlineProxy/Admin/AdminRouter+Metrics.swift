/// `GET /metrics`: the Prometheus text exposition format 0.0.4 (docs/metrics.md).
extension AdminRouter {
    /// The metrics now, rendered (`MetricsRenderer`). Live sessions are counted after a sweep,
    /// and their rules' fault counters are summed by rule and fault name under `scope="session"`,
    /// in at most `FaultSeries.maxSessionSeries` series.
    func metrics() -> AdminResponse {
        var metrics = server.metricsSnapshot()
        let sessions = server.sessions.all(now: MonotonicClock.nanoseconds())
        metrics.sessionsActive = sessions.count
        metrics.pinReports = server.pinReports.counts()
        metrics.scenarios = server.scenarios.slots.map { ($0.config.name, $0.phase?.index ?? -1, $0.transitions) }
        metrics.sessionScenarioTransitions = server.scenarioReporter.sessionTransitions.load(ordering: .relaxed)
        metrics.faults.append(FaultSeries(scope: "session", stats: sessions.flatMap { $0.ruleSet.decider.stats() },
                                          limit: FaultSeries.maxSessionSeries))
        return AdminResponse(status: 200, body: Array(MetricsRenderer.render(metrics).utf8), contentType: MetricsText.contentType)
    }
}
