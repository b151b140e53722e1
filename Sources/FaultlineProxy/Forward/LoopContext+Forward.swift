import FaultlineHTTP
import FaultlineIO

/// The per-loop state of forward-proxy requests.
extension LoopContext {
    /// The pool and TLS settings of a forwarded exchange's destination, made on first use;
    /// nil for an exchange that is not forwarded, or when the TLS trust files cannot be
    /// loaded (then the exchange fails before connecting, see `connectUpstream`).
    func forwardDestination(of exchange: Exchange) -> ForwardPools.Destination? {
        guard let destination = exchange.destination, let route = exchange.route else { return nil }
        return forwardPools.destination(destination.poolKey) {
            try forwardSecurities.security(for: route.upstream, caFile: destination.caFile)
        }
    }

    /// Why `target` at `address` may not be contacted: it is one of Faultline's own sockets (a
    /// proxy listener, or the admin API reached through the proxy); nil when it may.
    func selfReference(_ target: ForwardTarget, at address: SocketAddress) -> String? {
        guard ForwardGate.isOwn(address, own: state.ownAddresses.withLock { $0 }) else { return nil }
        return "\(target.description) is Faultline itself (a proxy listener or the admin API); requests to it through the proxy are refused"
    }
}
