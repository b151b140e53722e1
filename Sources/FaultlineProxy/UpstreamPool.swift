import FaultlineIO

/// Idle upstream connections of one loop, per address, most recently used first.
///
/// A short array scanned linearly: a proxy has a handful of upstreams, and comparing two
/// small addresses is cheaper than hashing one on every request.
final class UpstreamPool {
    /// Connections are interchangeable only with the same address and the same TLS settings
    /// (a reload that changes trust or pins starts a new entry; the old one idles out).
    private struct Entry {
        let address: SocketAddress
        let security: UpstreamSecurity?
        var idle: [UpstreamConnection]

        func holds(_ address: SocketAddress, _ security: UpstreamSecurity?) -> Bool {
            self.address == address && self.security === security
        }
    }

    private var entries: [Entry] = []

    /// Takes an idle connection to `address` made with `security`, if one is open.
    func take(_ address: SocketAddress, security: UpstreamSecurity?) -> UpstreamConnection? {
        guard let index = entries.firstIndex(where: { $0.holds(address, security) }) else { return nil }
        while let connection = entries[index].idle.popLast() {
            if !connection.socket.isClosed {
                connection.pool = nil
                return connection
            }
        }
        return nil
    }

    /// Parks `connection` for at most `idleMilliseconds`, unless the pool for its address holds
    /// `maxIdle` already.
    func put(_ connection: UpstreamConnection, maxIdle: Int, idleMilliseconds: Int, now: UInt64) {
        let index: Int
        if let existing = entries.firstIndex(where: { $0.holds(connection.address, connection.security) }) {
            index = existing
        } else {
            entries.append(Entry(address: connection.address, security: connection.security, idle: []))
            index = entries.count - 1
        }
        guard entries[index].idle.count < maxIdle else {
            connection.close()
            return
        }
        connection.detachForReuse()
        connection.idleDeadline = now &+ UInt64(idleMilliseconds) &* 1_000_000
        connection.pool = self
        entries[index].idle.append(connection)
    }

    /// Forgets `connection` (it closed or failed while idle).
    func remove(_ connection: UpstreamConnection) {
        connection.pool = nil
        guard let index = entries.firstIndex(where: { $0.holds(connection.address, connection.security) }) else { return }
        entries[index].idle.removeAll { $0 === connection }
    }

    /// Closes connections whose idle time is up.
    func closeExpired(now: UInt64) {
        for entry in entries {
            for connection in entry.idle where now >= connection.idleDeadline {
                connection.close()
            }
        }
    }

    /// Closes every idle connection (drain, shutdown).
    func closeAll() {
        let all = entries.flatMap(\.idle)
        entries.removeAll()
        for connection in all {
            connection.pool = nil
            connection.close()
        }
    }
}
