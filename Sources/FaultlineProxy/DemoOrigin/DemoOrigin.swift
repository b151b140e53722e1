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
        if address.port != 0 {
            // SO_REUSEPORT would let a second origin on the same port silently share it (and
            // steal half the connections); a plain bind first makes that an EADDRINUSE error.
            Sockets.close(try Sockets.listen(on: address, reusePort: false))
        }
        // The first bind is synchronous so that errors are thrown and an ephemeral port is known
        // before the other loops bind the same port.
        let firstFD = try Sockets.listen(on: address, reusePort: true)
        guard let bound = Sockets.localAddress(of: firstFD) else {
            let error = IOError.last("getsockname")
            Sockets.close(firstFD)
            throw error
        }
        var fds = [firstFD]
        for _ in loops.dropFirst() {
            do {
                fds.append(try Sockets.listen(on: bound, reusePort: true))
            } catch {
                for fd in fds { Sockets.close(fd) }
                throw error
            }
        }
        boundAddress = bound
        acceptors = zip(fds, loops).map { DemoOriginAcceptor(fd: $0, loop: $1) }
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
