import Synchronization

/// Counts successes and failures of background traffic across tasks, and tells loops when to stop.
final class TrafficCounter: Sendable {
    private let state = Mutex<(ok: Int, failures: [String])>((0, []))
    private let stopped = Atomic<Bool>(false)

    func success() { state.withLock { $0.ok += 1 } }
    func failure(_ description: String) { state.withLock { $0.failures.append(description) } }
    func stop() { stopped.store(true, ordering: .relaxed) }

    var isStopped: Bool { stopped.load(ordering: .relaxed) }
    var successes: Int { state.withLock { $0.ok } }
    var failures: [String] { state.withLock { $0.failures } }
}
