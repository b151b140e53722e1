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

    /// Creates `count` loops and starts a thread for each, named `name-N` after its loop's index
    /// (as `top -H` and `/proc/PID/task/TID/comm` show it).
    public init(count: Int, name: String = "loop") throws(IOError) {
        var loops: [EventLoop] = []
        for index in 0..<max(1, count) {
            loops.append(try EventLoop(index: index))
        }
        self.loops = loops
        var started: [pthread_t] = []
        do {
            for loop in loops {
                let thread = try EventLoopThread.start { loop.run() }
                started.append(thread)
                CPUAffinity.name(thread, "\(name)-\(loop.index)")
            }
        } catch {
            for loop in loops { loop.stop() }
            EventLoopThread.join(started)
            throw error
        }
        threads = Mutex(started)
    }

    /// Binds each loop's thread to the CPU of the same index in `cpus` (one per loop), so that
    /// every loop keeps its core: no migrations, and two loops never take turns on one core
    /// while another stands idle. All or none: if one binding fails, the threads bound before
    /// it may run anywhere again, and the error says which CPU failed.
    public func pin(to cpus: [Int]) throws(IOError) {
        guard cpus.count == loops.count else {
            throw IOError("bind \(loops.count) loop thread(s) to \(cpus.count) CPU(s)", code: EINVAL)
        }
        let running = threads.withLock { $0 }
        guard running.count == cpus.count else {
            throw IOError("bind stopped loop threads to CPUs", code: ESRCH)
        }
        for (index, thread) in running.enumerated() {
            do {
                try CPUAffinity.pin(thread, to: cpus[index])
            } catch {
                for bound in running.prefix(index) { CPUAffinity.unpin(bound) }
                throw error
            }
        }
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
