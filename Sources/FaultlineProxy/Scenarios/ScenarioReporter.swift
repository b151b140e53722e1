import FaultlineIO
import FaultlineSync
import Synchronization

/// What scenario boards need from the running proxy, shared by the global board and every
/// session's: the loop whose timer queue ends timed phases, and where phase changes are
/// reported. Connected once the loops exist (`ProxyServerState.attach`); until then (and in
/// unit tests) timers are not set and reports go nowhere.
final class ScenarioReporter: Sendable {
    private struct Connection {
        var loop: EventLoop?
        var deliver: (@Sendable (ScenarioTransition) -> Void)?
    }

    private let connection = TracedMutex(Connection())
    /// Phase changes of sessions' scenarios (they get no series of their own in `/metrics`).
    let sessionTransitions = Atomic<Int>(0)

    init() {}

    /// Sets (or, with nils, clears) the timer loop and the report sink.
    func connect(loop: EventLoop?, deliver: (@Sendable (ScenarioTransition) -> Void)?) {
        connection.withLock { $0 = Connection(loop: loop, deliver: deliver) }
    }

    /// Reports `transitions` in order.
    func report(_ transitions: [ScenarioTransition]) {
        guard !transitions.isEmpty, let deliver = connection.withLock({ $0.deliver }) else { return }
        for transition in transitions {
            if transition.session != nil, case .entered = transition.change {
                sessionTransitions.add(1, ordering: .relaxed)
            }
            deliver(transition)
        }
    }

    /// Calls `fire` on the timer loop at monotonic `deadline` (ns); nothing without a loop.
    func schedule(at deadline: UInt64, _ fire: @escaping @Sendable () -> Void) {
        guard let loop = connection.withLock({ $0.loop }) else { return }
        loop.execute {
            loop.schedule(atNanoseconds: deadline) { fire() }
        }
    }
}
