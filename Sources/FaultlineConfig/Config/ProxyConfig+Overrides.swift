extension ProxyConfig {
    /// The same configuration with the command line's overrides applied: a worker count,
    /// a new address for the first listener (its TLS and h2c settings kept) and an admin API
    /// (`ConfigLoader.adminOverride`).
    public func overriding(workers: Int?, firstListenerAddress: SocketAddressSpec?, admin adminOverride: AdminConfig? = nil) -> ProxyConfig {
        var copy = self
        if let address = firstListenerAddress {
            if copy.listeners.isEmpty {
                copy.listeners = [ListenerConfig(address: address)]
            } else {
                copy.listeners[0].address = address
            }
        }
        if let workers { copy.workers = workers }
        if let adminOverride { copy.admin = adminOverride }
        return copy
    }
}
