import FaultlineIO

/// One loop's listening socket for the demo origin.
///
/// Touched only on its loop's thread (through `EventLoop.execute`), which is why it may be
/// `@unchecked Sendable`: `DemoOrigin` merely holds it to post `start` and `stop`.
final class DemoOriginAcceptor: @unchecked Sendable {
    let loop: EventLoop
    private let fd: Int32
    private let tokens: DemoOriginTokens
    private var listener: Listener?
    private var isStopped = false

    init(fd: Int32, loop: EventLoop, tokens: DemoOriginTokens) {
        self.fd = fd
        self.loop = loop
        self.tokens = tokens
    }

    /// Registers the listener; runs on the loop.
    func start() {
        guard !isStopped, listener == nil else { return }
        let loop = self.loop
        let tokens = self.tokens
        do {
            listener = try Listener(fd: fd, loop: loop) { fd, peer in
                DemoOriginConnection.accept(fd: fd, peer: peer, loop: loop, tokens: tokens)
            }
        } catch {
            // Registration only fails if epoll refuses the descriptor; this loop then serves
            // nothing and the others (same port) still do.
            isStopped = true
            Sockets.close(fd)
        }
    }

    /// Closes the listener; runs on the loop. Accepted connections are not affected.
    func stop() {
        guard !isStopped else { return }
        isStopped = true
        if let listener {
            listener.close()
        } else {
            Sockets.close(fd)
        }
        listener = nil
    }
}
