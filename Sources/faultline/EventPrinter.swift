import FaultlineLog
import FaultlineProxy

/// Shows proxy events on standard error (their texts arrive redacted: see
/// `ProxyServerState.events`). Events are reported on event loops, so they are queued,
/// never written there: `OperatorEventQueue` writes them from its own thread, rate-limited,
/// and says how many it dropped.
enum EventPrinter {
    /// The queue; nil only when its thread could not start (then lines are written directly).
    private static let queue: OperatorEventQueue? = try? OperatorEventQueue()

    @Sendable static func print(_ event: ProxyEvent) {
        let line = describe(event)
        guard let queue else {
            Console.err(line)
            return
        }
        queue.write(line)
        // The last event before the process exits (on the main thread): let it out.
        if case .drained = event { queue.flush(timeout: 1) }
    }

    private static func describe(_ event: ProxyEvent) -> String {
        switch event {
        case .workers(let count, let placement):
            "faultline: \(count) worker(s), \(placement)"
        case .listening(let address):
            "faultline: listening on \(address)"
        case .adminListening(let address):
            "faultline: admin API listening on \(address)"
        case .clientTLSFailure(let peer, let reason):
            "faultline: client \(peer): \(reason)"
        case .pinFailure(let json):
            "faultline: pin failure report: \(json)"
        case .pinWarning(let upstream, let message):
            "faultline: warning: upstream \(upstream): \(message)"
        case .connectionsCapped(let configured, let effective, let limit):
            "faultline: warning: limits.max_connections \(configured) does not fit the descriptor limit (\(limit), see ulimit -n); accepting at most \(effective) client connections"
        case .scenario(let message):
            "faultline: \(message)"
        case .reloaded(let generation):
            "faultline: configuration reloaded (generation \(generation))"
        case .reloadFailed(let message):
            "faultline: reload refused, previous configuration stays:\n\(message)"
        case .draining(let connections):
            "faultline: draining \(connections) connection(s)"
        case .drained(let abandoned):
            abandoned == 0 ? "faultline: drained, exiting" : "faultline: drain timed out with \(abandoned) connection(s) open, exiting"
        }
    }
}
