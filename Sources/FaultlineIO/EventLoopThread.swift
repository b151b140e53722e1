#if canImport(Glibc)
import Glibc
#endif

/// Starts a POSIX thread running a closure; Foundation's Thread is not needed for this.
public enum EventLoopThread {
    private final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// Runs `body` on a new thread, which the caller joins (`join`) or detaches.
    public static func start(_ body: @escaping @Sendable () -> Void) throws(IOError) -> pthread_t {
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
        return thread
    }

    /// Waits for each thread of `threads` to finish. The calling thread, if it is one of them,
    /// cannot wait for itself: it is detached instead, so its resources go when it ends.
    public static func join(_ threads: [pthread_t]) {
        let current = pthread_self()
        for thread in threads {
            if pthread_equal(thread, current) != 0 {
                pthread_detach(thread)
            } else {
                pthread_join(thread, nil)
            }
        }
    }
}
