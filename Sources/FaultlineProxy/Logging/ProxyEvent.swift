import FaultlineIO

/// Notable things the proxy reports; the executable decides how to show them.
public enum ProxyEvent: Sendable {
    /// The workers started, bound to CPUs or not (`worker_affinity`).
    case workers(count: Int, placement: WorkerPlacement)
    /// A listener is accepting connections at this address.
    case listening(SocketAddress)
    /// The admin API is accepting connections at this address.
    case adminListening(SocketAddress)
    /// A client's TLS handshake failed (e.g. plain HTTP sent to a TLS port).
    case clientTLSFailure(peer: String, reason: String)
    /// A pin failure report (report mode) or a refused chain (enforce mode), as a JSON object
    /// with the fields of an RFC 7469 report.
    case pinFailure(json: String)
    /// A pin warning raised on a handshake (e.g. the pin set has expired).
    case pinWarning(upstream: String, message: String)
    /// `limits.max_connections` is more than the descriptor limit allows; `effective` applies.
    case connectionsCapped(configured: Int, effective: Int, descriptorLimit: Int)
    /// A scenario's phase changed; `message` says which and how.
    case scenario(message: String)
    /// A new configuration is in effect.
    case reloaded(generation: Int)
    /// A new configuration was refused; the previous one stays.
    case reloadFailed(String)
    /// Shutdown began: no new connections, in-flight exchanges finish.
    case draining(connections: Int)
    /// Shutdown finished; `abandoned` connections were still open at the deadline.
    case drained(abandoned: Int)
}
