import Foundation

// Launching is for Linux and macOS; iOS test targets `connect` instead.
#if FAULTLINE_LAUNCH
/// The children `launch` started and not yet ended. When the test process exits while a
/// `Faultline` is still alive (a test abandoned at its time limit never runs its `defer`,
/// and deinit does not run at exit), an exit handler kills them, so no proxy outlives
/// the tests.
/// Their temporary directories go at exit too, so test runs leave no folders behind.
enum ChildRegistry {
    private static let live = Locked(Set<Int32>())
    private static let directories = Locked(Set<String>())
    private static let installHandler: Void = {
        atexit {
            for pid in ChildRegistry.live.withLock({ $0 }) { kill(pid, SIGKILL) }
            for path in ChildRegistry.directories.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: path) }
        }
    }()

    /// Records a launch's temporary directory, removed at exit unless `forget` came first.
    static func add(directory: URL) {
        installHandler
        _ = directories.withLock { $0.insert(directory.path) }
    }

    /// Forgets a directory that `stop()` removed.
    static func forget(directory: URL) {
        _ = directories.withLock { $0.remove(directory.path) }
    }

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
