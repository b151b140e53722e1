/// `GET /metrics`: the Prometheus text exposition format 0.0.4 (docs/metrics.md).
extension AdminRouter {
    /// The metrics now, rendered (`MetricsRenderer`).
    func metrics() -> AdminResponse {
        var metrics = server.metricsSnapshot()
        // Sessions report here once the proxy keeps them: `metrics.sessionsActive` from their
        // registry, and their rules' fault counters as `FaultScope(scope: "session", ...)`.
        metrics.sessionsActive = 0
        return AdminResponse(status: 200, body: Array(MetricsRenderer.render(metrics).utf8), contentType: MetricsText.contentType)
    }
}
