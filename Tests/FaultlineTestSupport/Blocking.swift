import Foundation

/// Runs blocking work (sockets, `waitUntilExit`) on a thread of its own, so the small
/// cooperative pool of Swift concurrency (one thread per core) is never stalled by a test.
public enum Blocking {
    /// Runs `work` on a new thread and returns (or throws) what it did.
    public static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread {
                do { continuation.resume(returning: try work()) } catch { continuation.resume(throwing: error) }
            }
            thread.start()
        }
    }
}
