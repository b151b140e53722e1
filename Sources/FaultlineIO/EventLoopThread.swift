#if canImport(Glibc)
import Glibc
#endif

/// Starts a POSIX thread running a closure; Foundation's Thread is not needed for this.
public enum EventLoopThread {
    private final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// Runs `body` on a new detached thread.
    public static func start(_ body: @escaping @Sendable () -> Void) throws(IOError) {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { argument in
            guard let argument else { return nil }
            let box = Unmanaged<Box>.fromOpaque(argument).takeRetainedValue()
            box.body()
            return nil
        }, box)
        guard status == 0 else {
            Unmanaged<Box>.fromOpaque(box).release()
            throw IOError("pthread_create", code: status)
        }
        pthread_detach(thread)
    }
}
