import Dispatch
import FaultlineIO
import FaultlineConfig

/// The admin API's listener: loopback by default, on the first event loop (admin traffic is
/// light and must not need a loop of its own). The loop only parses and checks requests;
/// answering them (rule compiles, HAR exports) runs on a serial queue of its own.
final class AdminServer: Sendable {
    /// The most admin connections open at once; more are closed at accept.
    static let maxConnections = 64

    /// Where it listens.
    let boundAddress: SocketAddress
    private let acceptor: AdminAcceptor

    init(config: AdminConfig, address: SocketAddress, loop: EventLoop, router: AdminRouter) throws(IOError) {
        let (fds, bound) = try Sockets.listenGroup(on: address, count: 1)
        boundAddress = bound
        let context = AdminContext(
            router: router, hostCheck: AdminHostCheck(configuredHost: config.address.host, port: bound.port),
            queue: DispatchQueue(label: "faultline.admin"), streamQueue: DispatchQueue(label: "faultline.admin.stream"),
            streamCache: LiveSummaryCache(),
            connections: ConnectionCounter(ceiling: Self.maxConnections))
        // The dashboard reads the live feed; without an admin listener nothing would.
        router.server.live.switchOn()
        acceptor = AdminAcceptor(fd: fds[0], loop: loop, context: context)
        let acceptor = self.acceptor
        loop.execute { acceptor.start() }
    }

    /// Stops accepting.
    func stop() {
        let acceptor = self.acceptor
        acceptor.loop.execute { acceptor.stop() }
    }
}

/// What every admin connection shares.
struct AdminContext: Sendable {
    /// Answers requests (on `queue`).
    let router: AdminRouter
    /// Which Host values are accepted.
    let hostCheck: AdminHostCheck
    /// Where requests are answered: off the event loop, one at a time, so rule changes
    /// apply in the order they arrived and a compile never stalls proxy traffic.
    let queue: DispatchQueue
    /// Where live streams encode their batches, so a busy dashboard never delays a rule change.
    let streamQueue: DispatchQueue
    /// Summaries encoded once for every live stream.
    let streamCache: LiveSummaryCache
    /// Open admin connections, against `AdminServer.maxConnections`.
    let connections: ConnectionCounter
}

/// Owns the admin listening socket on its loop.
final class AdminAcceptor: @unchecked Sendable {
    let fd: Int32
    let loop: EventLoop
    private let context: AdminContext
    private var listener: Listener?

    init(fd: Int32, loop: EventLoop, context: AdminContext) {
        self.fd = fd
        self.loop = loop
        self.context = context
    }

    /// Registers the listener; on the loop's thread.
    func start() {
        do {
            listener = try Listener(fd: fd, loop: loop) { [context, loop] fd, peer in
                // Over the cap the connection is closed at once, as the proxy does past
                // max_connections: an idle flood cannot hold the admin API.
                guard context.connections.admit(limit: AdminServer.maxConnections) else {
                    Sockets.close(fd)
                    return
                }
                do {
                    _ = try AdminConnection(fd: fd, peer: peer, loop: loop, context: context)
                } catch {
                    Sockets.close(fd)
                    context.connections.release()
                }
            }
        } catch {
            Sockets.close(fd)
        }
    }

    /// Closes the listener; on the loop's thread.
    func stop() {
        listener?.close()
        listener = nil
    }
}
