#if canImport(Glibc)
import Glibc
#endif

/// A POSIX semaphore that wakes the writer thread. `sem_post`, `sem_wait` and
/// `sem_timedwait` are thread-safe, hence `@unchecked Sendable`; the pointer is owned
/// here and freed at deinit.
final class SinkSemaphore: @unchecked Sendable {
    private let semaphore: UnsafeMutablePointer<sem_t>

    init() {
        semaphore = .allocate(capacity: 1)
        sem_init(semaphore, 0, 0)
    }

    deinit {
        sem_destroy(semaphore)
        semaphore.deallocate()
    }

    /// Wakes the waiter.
    func post() {
        sem_post(semaphore)
    }

    /// Waits for a post (EINTR retried).
    func wait() {
        while sem_wait(semaphore) != 0, errno == EINTR {}
    }
}
