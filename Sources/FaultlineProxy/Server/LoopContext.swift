import FaultlineIO
import FaultlineConfig
import Synchronization

/// Everything one event loop owns for proxying: its view of the config, its upstream pool,
/// its client connections. Touched only on that loop's thread (hence unchecked Sendable:
/// other threads only pass it back to its loop through `execute`).
final class LoopContext: @unchecked Sendable {
    /// The loop.
    let loop: EventLoop
    /// What all loops share.
    let state: ProxyServerState
    /// Open connections across the process.
    var connections: ConnectionCounter { state.connections }
    /// The config new exchanges on this loop use. A new one retires the pool entries the
    /// old one made and the new one does not use.
    var snapshot: ConfigSnapshot {
        didSet {
            let keys = Self.poolKeys(of: snapshot)
            pool.retainOnly(keys)
            http2Upstreams.retainOnly(keys)
            if snapshot.http2Settings != oldValue.http2Settings { reannounceHTTP2Settings() }
            rebaseMetrics(on: snapshot)
        }
    }
    /// Idle upstream connections.
    let pool = UpstreamPool()
    /// Where this loop composes HTTP/1 heads.
    let headScratch = HeadScratch()
    /// Request decoders of closed HTTP/1 connections, for the next accepted ones.
    let requestDecoders = RequestDecoderPool()
    /// HTTP/2 upstream connections (`protocol: h2` or `h2c`), shared by this loop's exchanges.
    let http2Upstreams = HTTP2UpstreamRegistry()
    /// Hosts forward-proxy clients asked for, resolved off the loop.
    let forwardResolver: ForwardResolver
    /// TLS contexts towards intercepted hosts.
    let forwardSecurities = ForwardSecurityCache()
    /// Idle upstream connections to the hosts forward-proxy clients asked for, per host.
    let forwardPools = ForwardPools()
    /// This loop's request counts, latencies and pool sizes for `GET /metrics`.
    let metrics: LoopMetrics
    /// Whether the process is draining: no keep-alive, no new connections.
    private(set) var draining = false

    /// Client connections this loop holds or has been handed and not yet opened; the other
    /// loops read it to choose where a connection they accept goes (`LoopContext+Balancing`).
    let assignedClients = Atomic<Int>(0)
    /// The process's other loops; set before any loop accepts.
    var siblings: [LoopSibling] = []

    /// HTTP/1 and HTTP/2 client connections, by identity.
    private var clients: [ObjectIdentifier: any ClientConnection] = [:]
    private var listeners: [Listener] = []
    private static let sweepIntervalMilliseconds = 100

    init(loop: EventLoop, state: ProxyServerState, snapshot: ConfigSnapshot) {
        self.loop = loop
        self.state = state
        self.snapshot = snapshot
        forwardResolver = ForwardResolver(loop: loop)
        metrics = LoopMetrics(routes: snapshot.config.routes.map(\.name))
        pool.retainOnly(Self.poolKeys(of: snapshot))
        state.metrics.register(metrics)
    }

    /// The pool keys (address and TLS settings) of every upstream `snapshot` configures.
    static func poolKeys(of snapshot: ConfigSnapshot) -> [UpstreamPool.Key] {
        snapshot.config.upstreams.compactMap { snapshot.endpoint(ofUpstream: $0.name) }
    }

    /// Starts the deadline sweep; call on the loop's thread.
    func start() {
        scheduleSweep()
    }

    /// Starts accepting on `fd` (already bound and listening) for listener `listenerIndex`.
    func listen(fd: Int32, listenerIndex: Int) throws(IOError) {
        let listener = try Listener(fd: fd, loop: loop) { [unowned self] fd, peer in
            self.accept(fd: fd, peer: peer, listenerIndex: listenerIndex)
        }
        listeners.append(listener)
    }

    private func accept(fd: Int32, peer: SocketAddress?, listenerIndex: Int) {
        guard !draining, connections.admit(limit: snapshot.config.limits.maxConnections) else {
            Sockets.close(fd)
            return
        }
        let target = loopForNewConnection()
        target.assignedClients.add(1, ordering: .relaxed)
        if target === self {
            open(fd: fd, peer: peer, listenerIndex: listenerIndex)
        } else {
            target.loop.execute { target.open(fd: fd, peer: peer, listenerIndex: listenerIndex) }
        }
    }

    /// Serves a descriptor a loop of this process accepted and counted (in `connections` and
    /// in this loop's `assignedClients`); on this loop's thread.
    func open(fd: Int32, peer: SocketAddress?, listenerIndex: Int) {
        guard !draining else {
            refuse(fd)
            return
        }
        do {
            let tls = listenerIndex < snapshot.listenerTLS.count ? snapshot.listenerTLS[listenerIndex] : nil
            let h2c = listenerIndex < snapshot.config.listeners.count && snapshot.config.listeners[listenerIndex].h2c
            let forward = listenerIndex < snapshot.config.listeners.count ? snapshot.config.listeners[listenerIndex].forward : nil
            let connection = try DownstreamConnection(fd: fd, peer: peer, context: self, tls: tls, h2c: h2c, forward: forward)
            clients[ObjectIdentifier(connection)] = connection
        } catch {
            refuse(fd)
        }
    }

    private func refuse(_ fd: Int32) {
        Sockets.close(fd)
        connections.release()
        assignedClients.subtract(1, ordering: .relaxed)
    }

    /// Takes a client connection that did not come from a listener (the unit tests' in-memory
    /// harness) as `accept` takes one: counted, and under the deadline sweep. False (the
    /// caller closes it) when the context refuses new connections.
    func adopt(_ connection: DownstreamConnection) -> Bool {
        guard !draining, connections.admit(limit: snapshot.config.limits.maxConnections) else { return false }
        assignedClients.add(1, ordering: .relaxed)
        clients[ObjectIdentifier(connection)] = connection
        return true
    }

    /// An exchange its adapter (an HTTP/1 connection, an HTTP/2 stream) drops, however it
    /// ended: counted in the metrics, and the array of its upstream head taken back for the
    /// next head. Call once per exchange.
    func exchangeEnded(_ exchange: Exchange) {
        countEnded(exchange)
        headScratch.takeBack(exchange.upstreamHead)
    }

    /// Called by a connection when it has closed for good.
    func connectionClosed(_ connection: any ClientConnection) {
        if clients.removeValue(forKey: ObjectIdentifier(connection)) != nil {
            connections.release()
            assignedClients.subtract(1, ordering: .relaxed)
        }
    }

    /// An HTTP/1 connection handed its socket to an HTTP/2 one (ALPN h2, or the h2c preface):
    /// the same client connection, so it keeps its place in the connection count.
    func connectionUpgraded(from old: any ClientConnection, to new: any ClientConnection) {
        guard clients.removeValue(forKey: ObjectIdentifier(old)) != nil else { return }
        clients[ObjectIdentifier(new)] = new
        if draining { new.drain() }
    }

    /// A reload changed the HTTP/2 settings: an HTTP/2 connection announced its settings once,
    /// so each gets a graceful GOAWAY and its client reconnects under the new ones.
    private func reannounceHTTP2Settings() {
        for case let connection as HTTP2Connection in Array(clients.values) { connection.drain() }
    }

    /// Stops accepting, closes idle connections and lets busy ones finish their exchange.
    func beginDrain() {
        draining = true
        for listener in listeners { listener.close() }
        listeners.removeAll()
        pool.closeAll()
        forwardPools.closeAll()
        http2Upstreams.retireAll()
        for connection in Array(clients.values) { connection.drain() }
    }

    private func scheduleSweep() {
        // The context lives as long as its loop runs; a weak capture would move every
        // reference count of it to the slow side-table path.
        loop.schedule(afterMilliseconds: Self.sweepIntervalMilliseconds) { [unowned(unsafe) self] in
            self.sweep()
        }
    }

    /// Enforces deadlines; coarse (100 ms) so that no request pays for arming a timer.
    private func sweep() {
        let now = loop.now
        for connection in Array(clients.values) {
            connection.checkDeadline(now: now)
        }
        pool.closeExpired(now: now)
        forwardPools.closeExpired(now: now)
        http2Upstreams.closeIdle(now: now)
        publishIdleConnections()
        state.sessions.sweepIfDue(now: now)
        scheduleSweep()
    }
}
