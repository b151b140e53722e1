#if canImport(Glibc)
import Glibc
#endif

/// Starts the sink's writer: a detached POSIX thread with SIGPIPE blocked, so writing to
/// a closed pipe fails with EPIPE instead of killing the process.
enum WriterThread {
    private final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// Runs `body` on a new detached thread.
    static func start(_ body: @escaping @Sendable () -> Void) throws(LogSinkError) {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { argument in
            guard let argument else { return nil }
            var signals = sigset_t()
            sigemptyset(&signals)
            sigaddset(&signals, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &signals, nil)
            let box = Unmanaged<Box>.fromOpaque(argument).takeRetainedValue()
            box.body()
            return nil
        }, box)
        guard status == 0 else {
            Unmanaged<Box>.fromOpaque(box).release()
            throw LogSinkError("cannot start the log writer thread", path: nil, code: status)
        }
        pthread_detach(thread)
    }
}
