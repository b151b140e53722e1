#if FAULTLINE_TSAN
private import Glibc

/// An address on which ThreadSanitizer is told about a lock's acquire and release, through
/// `__tsan_acquire` and `__tsan_release`, which the TSan runtime exports. They are looked up
/// at run time so that a build given `-DFAULTLINE_TSAN` without `--sanitize=thread` still
/// links (and then reports nothing, as there is no TSan to tell).
public final class ThreadSanitizerSyncPoint: Sendable {
    /// A new sync point, ordered independently of every other.
    public init() {}

    /// Called just after the lock is taken: orders this thread after the last `releasing()`.
    @inlinable
    public func acquired() {
        ThreadSanitizerHooks.acquire?(Unmanaged.passUnretained(self).toOpaque())
    }

    /// Called just before the lock is given up.
    @inlinable
    public func releasing() {
        ThreadSanitizerHooks.release?(Unmanaged.passUnretained(self).toOpaque())
    }
}

/// The TSan runtime's annotation entry points, or nil when the process has no TSan runtime.
@usableFromInline
enum ThreadSanitizerHooks {
    @usableFromInline typealias Hook = @convention(c) (UnsafeMutableRawPointer?) -> Void

    @usableFromInline static let acquire = lookUp("__tsan_acquire")
    @usableFromInline static let release = lookUp("__tsan_release")

    private static func lookUp(_ symbol: String) -> Hook? {
        // RTLD_DEFAULT: the global scope, where the runtime linked into the binary is.
        dlsym(nil, symbol).map { unsafeBitCast($0, to: Hook.self) }
    }
}
#endif
