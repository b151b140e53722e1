extension ProxyConfig {
    /// The same configuration with the command line's overrides applied: a worker count,
    /// a new address for the first listener (its TLS and h2c settings kept) and an admin API
    /// (`ConfigLoader.adminOverride`). Written here, beside the initializer, so a new config
    /// field cannot be forgotten by a caller that rebuilds one.
    public func overriding(workers: Int?, firstListenerAddress: SocketAddressSpec?, admin adminOverride: AdminConfig? = nil) -> ProxyConfig {
        var listeners = self.listeners
        if let address = firstListenerAddress {
            if listeners.isEmpty {
                listeners = [ListenerConfig(address: address)]
            } else {
                listeners[0] = ListenerConfig(address: address, tls: listeners[0].tls, h2c: listeners[0].h2c,
                                              forward: listeners[0].forward, deferAccept: listeners[0].deferAccept)
            }
        }
        return ProxyConfig(workers: workers ?? self.workers, workerAffinity: workerAffinity, listeners: listeners, admin: adminOverride ?? admin,
                           demoOrigin: demoOrigin, upstreams: upstreams, routes: routes,
                           clientTimeouts: clientTimeouts, limits: limits, seed: seed,
                           faultHeaders: faultHeaders, log: log, har: har, http2: http2,
                           sessions: sessions, journal: journal, scenarios: scenarios)
    }
}
