/// The per-loop state of forward-proxy requests.
extension LoopContext {
    /// The TLS settings towards the real host of a forwarded exchange; nil for plain HTTP,
    /// or when the trust files cannot be loaded (then the connection fails as a TLS failure
    /// would not: it is refused before connecting, see `connectUpstream`).
    func forwardSecurity(for exchange: Exchange) -> UpstreamSecurity? {
        guard let destination = exchange.destination, destination.tls, let route = exchange.route else { return nil }
        return try? forwardSecurities.security(for: route.upstream, caFile: destination.caFile)
    }
}
