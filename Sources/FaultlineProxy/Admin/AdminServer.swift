import FaultlineIO

/// The admin API's listener: loopback by default, on the first event loop (admin traffic is
/// light and must not need a loop of its own).
final class AdminServer: Sendable {
    /// Where it listens.
    let boundAddress: SocketAddress
    private let acceptor: AdminAcceptor

    init(address: SocketAddress, loop: EventLoop, router: AdminRouter) throws(IOError) {
        let (fds, bound) = try Sockets.listenGroup(on: address, count: 1)
        boundAddress = bound
        acceptor = AdminAcceptor(fd: fds[0], loop: loop, router: router)
        let acceptor = self.acceptor
        loop.execute { acceptor.start() }
    }

    /// Stops accepting.
    func stop() {
        let acceptor = self.acceptor
        acceptor.loop.execute { acceptor.stop() }
    }
}

/// Owns the admin listening socket on its loop.
final class AdminAcceptor: @unchecked Sendable {
    let fd: Int32
    let loop: EventLoop
    private let router: AdminRouter
    private var listener: Listener?

    init(fd: Int32, loop: EventLoop, router: AdminRouter) {
        self.fd = fd
        self.loop = loop
        self.router = router
    }

    /// Registers the listener; on the loop's thread.
    func start() {
        do {
            listener = try Listener(fd: fd, loop: loop) { [router, loop] fd, peer in
                do {
                    _ = try AdminConnection(fd: fd, peer: peer, loop: loop, router: router)
                } catch {
                    Sockets.close(fd)
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
