#if canImport(Glibc)
import Glibc
#endif

/// Accepts connections on one listening socket owned by one loop.
///
/// When accept fails for want of descriptors or memory (EMFILE, ENFILE, ENOBUFS, ENOMEM) the
/// pending connection stays queued, so a level-triggered listener would wake again at once
/// and spin. Instead the listener stops watching its socket for `pauseMilliseconds` and then
/// tries again, as nginx and HAProxy do; the queued clients wait in the kernel's backlog.
public final class Listener: EventHandler {
    /// How long accepting pauses after running out of descriptors.
    public static let pauseMilliseconds = 100

    private enum State {
        /// Registered for readability.
        case accepting
        /// Out of descriptors: not registered; the timer registers again.
        case paused(TimerID)
        /// Closed for good.
        case closed
    }

    /// The listening descriptor.
    public let fd: Int32
    /// The loop it is registered with.
    public unowned(unsafe) let loop: EventLoop
    private let onAccept: (Int32, SocketAddress?) -> Void
    private var state = State.accepting

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
            guard case .accepting = state else { return }
            do {
                guard let accepted = try Sockets.accept(fd) else { return }
                onAccept(accepted.fd, accepted.peer)
            } catch {
                if Self.isExhaustion(error.code) { pause() }
                // Any other failure concerned one connection only; the next wake-up goes on.
                return
            }
        }
    }

    /// Stops accepting and closes the socket.
    public func close() {
        switch state {
        case .closed:
            return
        case .paused(let timer):
            loop.cancel(timer)
        case .accepting:
            loop.deregister(fd)
        }
        state = .closed
        Sockets.close(fd)
    }

    private func pause() {
        loop.deregister(fd)
        let timer = loop.schedule(afterMilliseconds: Self.pauseMilliseconds) { [weak self] in
            self?.resume()
        }
        state = .paused(timer)
    }

    private func resume() {
        guard case .paused = state else { return }
        do {
            try loop.register(fd, handler: self, events: IOEvents.readable)
            state = .accepting
        } catch {
            // Even epoll_ctl is short of memory: try again after another pause.
            state = .accepting
            pause()
        }
    }

    private static func isExhaustion(_ code: Int32) -> Bool {
        code == EMFILE || code == ENFILE || code == ENOBUFS || code == ENOMEM
    }
}
