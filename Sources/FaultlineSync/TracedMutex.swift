import Synchronization

/// A `Synchronization.Mutex` whose critical sections ThreadSanitizer can see.
///
/// On Linux `Mutex` locks with atomics and futex calls inside `libswiftSynchronization.so`,
/// which is not instrumented, so TSan finds no ordering between two critical sections and
/// reports every access made under the lock as a race. Built with `-DFAULTLINE_TSAN` (as
/// `scripts/sanitize.sh thread` builds), `withLock` tells TSan that it acquired and releases
/// the lock; in every other build it is `Mutex.withLock` and nothing more.
public struct TracedMutex<Value: ~Copyable>: ~Copyable, Sendable {
    @usableFromInline let mutex: Mutex<Value>
    #if FAULTLINE_TSAN
    /// The address TSan orders the critical sections on: an object of its own, because
    /// taking the address of the guarded value would itself be an access TSan checks.
    @usableFromInline let syncPoint = ThreadSanitizerSyncPoint()
    #endif

    /// A lock guarding `initialValue`.
    public init(_ initialValue: consuming sending Value) {
        mutex = Mutex(initialValue)
    }

    /// Runs `body` with the guarded value while holding the lock.
    @inlinable
    public borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        try mutex.withLock { (value: inout sending Value) throws(E) -> sending Result in
            #if FAULTLINE_TSAN
            syncPoint.acquired()
            defer { syncPoint.releasing() }
            #endif
            return try body(&value)
        }
    }
}
