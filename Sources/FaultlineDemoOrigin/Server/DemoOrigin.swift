import FaultlineIO

/// The httpbin-like origin built into the binary, so that Faultline runs with nothing else
/// installed; also the origin of integration tests and benchmarks.
///
/// Every loop of the group owns one SO_REUSEPORT listening socket on the same port, so the
/// kernel spreads connections across loops and a connection never leaves its loop.
public final class DemoOrigin: Sendable {
    /// The address actually bound (the real port when 0 was asked for).
    public let boundAddress: SocketAddress
    private let acceptors: [DemoOriginAcceptor]

    /// Binds `address` (port 0 = ephemeral) with SO_REUSEPORT and serves on every loop of `group`.
    public init(address: SocketAddress, group: EventLoopGroup) throws(IOError) {
        let loops = group.loops
        let (fds, bound) = try Sockets.listenGroup(on: address, count: loops.count)
        boundAddress = bound
        let tokens = DemoOriginTokens()
        acceptors = zip(fds, loops).map { DemoOriginAcceptor(fd: $0, loop: $1, tokens: tokens) }
        for acceptor in acceptors {
            acceptor.loop.execute { acceptor.start() }
        }
    }

    /// Stops accepting (closes listeners); existing connections finish.
    public func stop() {
        for acceptor in acceptors {
            acceptor.loop.execute { acceptor.stop() }
        }
    }
}
