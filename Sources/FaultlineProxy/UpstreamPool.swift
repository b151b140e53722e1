import FaultlineIO

/// Idle upstream connections of one loop, per address, most recently used first.
final class UpstreamPool {
    private var idle: [SocketAddress: [UpstreamConnection]] = [:]
    /// Connections this pool handed out again instead of opening new ones.
    private(set) var reuseCount = 0

    /// Takes an idle connection to `address`, if one is open.
    func take(_ address: SocketAddress) -> UpstreamConnection? {
        guard var list = idle[address] else { return nil }
        while let connection = list.popLast() {
            if !connection.socket.isClosed {
                idle[address] = list
                connection.pool = nil
                reuseCount += 1
                return connection
            }
        }
        idle[address] = nil
        return nil
    }

    /// Parks `connection` unless the pool for its address holds `maxIdle` already.
    func put(_ connection: UpstreamConnection, maxIdle: Int, now: UInt64) {
        var list = idle[connection.address] ?? []
        guard list.count < maxIdle else {
            connection.close()
            return
        }
        connection.detachForReuse()
        connection.idleSince = now
        connection.pool = self
        list.append(connection)
        idle[connection.address] = list
    }

    /// Forgets `connection` (it closed or failed while idle).
    func remove(_ connection: UpstreamConnection) {
        guard var list = idle[connection.address] else { return }
        list.removeAll { $0 === connection }
        idle[connection.address] = list.isEmpty ? nil : list
        connection.pool = nil
    }

    /// Closes connections idle for longer than `idleNanoseconds(address)` allows.
    func closeExpired(now: UInt64, idleNanoseconds: (SocketAddress) -> UInt64) {
        for (address, list) in idle {
            let limit = idleNanoseconds(address)
            for connection in list where now &- connection.idleSince >= limit {
                connection.close()
            }
        }
    }

    /// Closes every idle connection (drain, shutdown).
    func closeAll() {
        let all = idle.values.flatMap { $0 }
        idle.removeAll()
        for connection in all {
            connection.pool = nil
            connection.close()
        }
    }
}
