import FaultlineIO

/// Idle upstream connections of one loop, per address, most recently used first.
///
/// A short array scanned linearly: a proxy has a handful of upstreams, and comparing two
/// small addresses is cheaper than hashing one on every request.
///
/// `release` is the one way back into the pool, and it admits only a connection whose last
/// exchange ended cleanly (`UpstreamConnection.isReusable`); `take` hands out only a
/// connection the kernel still reports open and silent.
final class UpstreamPool {
    /// What makes connections interchangeable: the same address and the same TLS settings
    /// (a reload that changes trust or pins compiles new settings, hence a new key).
    struct Key {
        let address: SocketAddress
        let security: UpstreamSecurity?

        func matches(_ address: SocketAddress, _ security: UpstreamSecurity?) -> Bool {
            self.address == address && self.security === security
        }
    }

    private struct Entry {
        let key: Key
        var idle: [UpstreamConnection]
    }

    private var entries: [Entry] = []
    /// The keys the loop's current configuration uses; nil until the first `retainOnly`
    /// (every key is then accepted).
    private var liveKeys: [Key]?

    /// Takes an idle connection to `address` made with `security`, if one is open and silent;
    /// connections found closed on the way are dropped (nothing was written to them, so a
    /// request of any method can use a fresh one instead).
    func take(_ address: SocketAddress, security: UpstreamSecurity?, now: UInt64) -> UpstreamConnection? {
        guard let index = entries.firstIndex(where: { $0.key.matches(address, security) }) else { return nil }
        while let connection = entries[index].idle.popLast() {
            if connection.parkedAt &+ Self.quietCheckAfterNs > now || connection.socket.isOpenAndQuiet() { return connection }
            connection.close()
        }
        return nil
    }

    /// How long a connection may have been idle before `take` asks the kernel whether it is
    /// still open (one `recv(MSG_PEEK)`). An idle connection's close or stray bytes wake the
    /// loop and remove it from the pool anyway; the question only narrows the window in which
    /// the close arrives between the loop's wake-up and the next request. Servers close idle
    /// connections when their keep-alive timeout fires, seconds after the last response, so a
    /// connection parked for less than this is handed out without the system call (nginx and
    /// HAProxy never ask): back-to-back keep-alive requests cost one system call less each.
    static let quietCheckAfterNs: UInt64 = 1_000_000_000

    /// How many connections to `address` made with `security` wait here (for `GET /metrics`).
    func idleCount(_ address: SocketAddress, security: UpstreamSecurity?) -> Int {
        entries.first { $0.key.matches(address, security) }?.idle.count ?? 0
    }

    /// How many connections wait here in all.
    var idleTotal: Int { entries.reduce(0) { $0 + $1.idle.count } }

    /// Ends the exchange of `connection`: it waits here for at most `idleMilliseconds` if it
    /// is reusable, its key is still configured and the pool for its key holds fewer than
    /// `maxIdle`; otherwise it is closed.
    func release(_ connection: UpstreamConnection, maxIdle: Int, idleMilliseconds: Int, now: UInt64) {
        let key = Key(address: connection.address, security: connection.security)
        guard connection.isReusable, isLive(key) else {
            connection.close()
            return
        }
        let index: Int
        if let existing = entries.firstIndex(where: { $0.key.matches(key.address, key.security) }) {
            index = existing
        } else {
            entries.append(Entry(key: key, idle: []))
            index = entries.count - 1
        }
        guard entries[index].idle.count < maxIdle else {
            connection.close()
            return
        }
        // The lifecycle refuses anything but a clean exchange a second time, independently.
        guard connection.park(in: self, at: now, until: now &+ UInt64(max(0, idleMilliseconds)) &* 1_000_000) else {
            connection.close()
            return
        }
        entries[index].idle.append(connection)
    }

    /// Forgets `connection` (it closed or failed while idle); a connection taken out
    /// already is not found, which is fine.
    func remove(_ connection: UpstreamConnection) {
        guard let index = entries.firstIndex(where: { $0.key.matches(connection.address, connection.security) }) else { return }
        entries[index].idle.removeAll { $0 === connection }
    }

    /// A new configuration took over: entries for keys it does not use are closed and
    /// dropped (with them the last references to old TLS contexts), and connections of
    /// exchanges still running on an older configuration close when they end.
    func retainOnly(_ keys: [Key]) {
        liveKeys = keys
        var closing: [UpstreamConnection] = []
        entries.removeAll { entry in
            guard !isLive(entry.key) else { return false }
            closing += entry.idle
            return true
        }
        for connection in closing { connection.close() }
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
        for connection in all { connection.close() }
    }

    private func isLive(_ key: Key) -> Bool {
        guard let liveKeys else { return true }
        return liveKeys.contains { $0.matches(key.address, key.security) }
    }
}
