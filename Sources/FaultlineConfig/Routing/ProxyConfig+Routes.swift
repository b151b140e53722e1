extension ProxyConfig {
    /// The same configuration with `routes` in place of its routes (the admin API's runtime
    /// rules laid over the file's). Written beside the initializer, like `overriding`, so a
    /// new config field cannot be forgotten.
    public func replacingRoutes(_ routes: [RouteConfig]) -> ProxyConfig {
        ProxyConfig(workers: workers, workerAffinity: workerAffinity, listeners: listeners, admin: admin,
                    demoOrigin: demoOrigin, upstreams: upstreams, routes: routes,
                    clientTimeouts: clientTimeouts, limits: limits, seed: seed,
                    faultHeaders: faultHeaders, log: log, har: har, http2: http2,
                    sessions: sessions, journal: journal, scenarios: scenarios)
    }
}
