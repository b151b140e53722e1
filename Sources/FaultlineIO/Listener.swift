/// Accepts connections on one listening socket owned by one loop.
public final class Listener: EventHandler {
    /// The listening descriptor.
    public let fd: Int32
    /// The loop it is registered with.
    public unowned(unsafe) let loop: EventLoop
    private let onAccept: (Int32, SocketAddress?) -> Void
    private var isClosed = false

    /// Registers `fd` with `loop`; `onAccept` receives each new descriptor and peer address.
    public init(fd: Int32, loop: EventLoop, onAccept: @escaping (Int32, SocketAddress?) -> Void) throws(IOError) {
        self.fd = fd
        self.loop = loop
        self.onAccept = onAccept
        try loop.register(fd, handler: self, events: IOEvents.readable)
    }

    /// Handles readiness: accepts what is waiting, a bounded batch at a time.
    public func handleEvents(_ events: UInt32) {
        for _ in 0..<64 {
            guard !isClosed else { return }
            do {
                guard let accepted = try Sockets.accept(fd) else { return }
                onAccept(accepted.fd, accepted.peer)
            } catch {
                // Out of descriptors or similar: leave the rest queued for the next wake-up.
                return
            }
        }
    }

    /// Stops accepting and closes the socket.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        loop.deregister(fd)
        Sockets.close(fd)
    }
}
