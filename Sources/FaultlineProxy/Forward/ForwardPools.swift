/// A loop's upstream pools for forward-proxy destinations, which clients name at run time:
/// one `UpstreamPool` per scheme, host, port and trust file, made on first use, with the idle
/// limits and timeouts the exchange's upstream gives (`max_idle_connections`, `timeouts_ms.idle`
/// of the defaults), and the same rules as a configured upstream's pool (only a connection
/// whose exchange ended cleanly goes back). A destination keeps its TLS settings with its
/// pool, so every request to the host offers the same settings and finds its connections.
///
/// Bounded: at most `capacity` destinations; making one more drops the least recently used,
/// closing its idle connections (a connection of that destination still in use closes when
/// its exchange ends).
final class ForwardPools {
    /// What makes a destination: where connections go and how they are secured.
    struct Key: Hashable {
        let host: String
        let port: UInt16
        let tls: Bool
        /// The trust file besides the system store (`forward.upstream_ca`).
        let caFile: String?
    }

    /// One destination: its TLS settings (nil for plain HTTP) and its idle connections.
    final class Destination {
        let security: UpstreamSecurity?
        let pool = UpstreamPool()
        /// When it was last used, in `ForwardPools` ticks.
        fileprivate var lastUsed: UInt64

        fileprivate init(security: UpstreamSecurity?, lastUsed: UInt64) {
            self.security = security
            self.lastUsed = lastUsed
        }
    }

    /// The default bound on destinations per loop.
    static let defaultCapacity = 256

    let capacity: Int
    private var destinations: [Key: Destination] = [:]
    private var tick: UInt64 = 0

    init(capacity: Int = ForwardPools.defaultCapacity) {
        self.capacity = max(1, capacity)
    }

    /// How many destinations are kept.
    var count: Int { destinations.count }

    /// Idle connections over every destination (for `GET /metrics`).
    var idleConnections: Int { destinations.values.reduce(0) { $0 + $1.pool.idleTotal } }

    /// The destination for `key`, now the most recently used; made when new, with the TLS
    /// settings `makeSecurity` gives when `key` is TLS (asked only then). Nil when those
    /// cannot be made: never plaintext to a TLS port.
    func destination(_ key: Key, makeSecurity: () throws -> UpstreamSecurity) -> Destination? {
        tick &+= 1
        if let known = destinations[key] {
            known.lastUsed = tick
            return known
        }
        var security: UpstreamSecurity?
        if key.tls {
            do { security = try makeSecurity() } catch { return nil }
        }
        return insert(key, security: security)
    }

    /// The pool a connection made with `security` for `key` goes back to; nil when that
    /// destination was dropped or made again since (the connection then closes: a pool
    /// nobody sweeps must never hold it).
    func pool(returning key: Key, madeWith security: UpstreamSecurity?) -> UpstreamPool? {
        guard let destination = destinations[key], destination.security === security else { return nil }
        return destination.pool
    }

    /// Closes idle connections whose time is up.
    func closeExpired(now: UInt64) {
        for destination in destinations.values { destination.pool.closeExpired(now: now) }
    }

    /// Closes every idle connection and forgets every destination (drain, shutdown).
    func closeAll() {
        let all = destinations.values
        destinations.removeAll()
        for destination in all { destination.pool.closeAll() }
    }

    private func insert(_ key: Key, security: UpstreamSecurity?) -> Destination {
        if destinations.count >= capacity, let oldest = destinations.min(by: { $0.value.lastUsed < $1.value.lastUsed }) {
            destinations.removeValue(forKey: oldest.key)
            oldest.value.pool.closeAll()
        }
        let destination = Destination(security: security, lastUsed: tick)
        destinations[key] = destination
        return destination
    }
}
