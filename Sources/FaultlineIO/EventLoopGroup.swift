import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A fixed set of event loops, each running on its own thread.
public final class EventLoopGroup: Sendable {
    /// The loops, index-aligned with `EventLoop.index`.
    public let loops: [EventLoop]
    /// The loops' threads, until `stop()` has waited for them.
    private let threads: Mutex<[pthread_t]>

    /// Creates `count` loops and starts a thread for each.
    public init(count: Int) throws(IOError) {
        var loops: [EventLoop] = []
        for index in 0..<max(1, count) {
            loops.append(try EventLoop(index: index))
        }
        self.loops = loops
        var started: [pthread_t] = []
        do {
            for loop in loops {
                started.append(try EventLoopThread.start { loop.run() })
            }
        } catch {
            for loop in loops { loop.stop() }
            EventLoopThread.join(started)
            throw error
        }
        threads = Mutex(started)
    }

    /// Runs `task` on every loop.
    public func forEach(_ task: @escaping @Sendable (EventLoop) -> Void) {
        for loop in loops {
            loop.execute { task(loop) }
        }
    }

    /// Stops every loop and waits until each has finished its last turn and let go of what it
    /// held (connections, TLS sessions, timers). The process may exit once this returns:
    /// exiting while a loop still tears its connections down would run the libraries' exit
    /// handlers (OpenSSL frees its global state) under that work, a crash at shutdown.
    /// Called on a loop's own thread, it waits for the others only. Later calls return at once.
    public func stop() {
        for loop in loops { loop.stop() }
        let running = threads.withLock { threads in
            defer { threads = [] }
            return threads
        }
        EventLoopThread.join(running)
    }
}
