import Foundation

// Launching needs Foundation's Process (Linux, macOS); iOS test targets `connect` instead.
#if FAULTLINE_LAUNCH
/// The children `launch` started and not yet ended. When the test process exits while a
/// `Faultline` is still alive (a test abandoned at its time limit never runs its `defer`,
/// and deinit does not run at exit), an exit handler kills them, so no proxy outlives
/// the tests.
enum ChildRegistry {
    private static let live = Locked(Set<Int32>())
    private static let installHandler: Void = {
        atexit {
            for pid in ChildRegistry.live.withLock({ $0 }) { kill(pid, SIGKILL) }
        }
    }()

    /// Records a started child.
    static func add(_ pid: Int32) {
        installHandler
        _ = live.withLock { $0.insert(pid) }
    }

    /// Forgets a child that has exited.
    static func remove(_ pid: Int32) {
        _ = live.withLock { $0.remove(pid) }
    }
}
#endif
