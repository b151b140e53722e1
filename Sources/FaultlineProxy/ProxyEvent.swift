import FaultlineIO

/// Notable things the proxy reports; the executable decides how to show them.
public enum ProxyEvent: Sendable {
    /// A listener is accepting connections at this address.
    case listening(SocketAddress)
    /// The admin API is accepting connections at this address.
    case adminListening(SocketAddress)
    /// A new configuration is in effect.
    case reloaded(generation: Int)
    /// A new configuration was refused; the previous one stays.
    case reloadFailed(String)
    /// Shutdown began: no new connections, in-flight exchanges finish.
    case draining(connections: Int)
    /// Shutdown finished; `abandoned` connections were still open at the deadline.
    case drained(abandoned: Int)
}
