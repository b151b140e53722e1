import Synchronization

/// What every loop of the proxy shares: the current config snapshot, connection accounting,
/// pin outcomes and the event sink. Everything here is safe to touch from any thread.
final class ProxyServerState: Sendable {
    /// Open client connections.
    let connections = ConnectionCounter()
    /// Pin outcomes per upstream.
    let pinStatus = PinStatusBoard()
    /// Where notable events go.
    let events: @Sendable (ProxyEvent) -> Void
    private let current: Mutex<ConfigSnapshot>

    init(snapshot: ConfigSnapshot, events: @escaping @Sendable (ProxyEvent) -> Void) {
        current = Mutex(snapshot)
        self.events = events
    }

    /// The snapshot new exchanges use.
    var snapshot: ConfigSnapshot { current.withLock { $0 } }

    /// Replaces the snapshot new exchanges use.
    func install(_ snapshot: ConfigSnapshot) {
        current.withLock { $0 = snapshot }
    }

    /// Client connections open now.
    var connectionCount: Int { connections.value }
}
