import FaultlineProxy

/// Shows proxy events on standard error.
enum EventPrinter {
    @Sendable static func print(_ event: ProxyEvent) {
        switch event {
        case .listening(let address):
            Console.err("faultline: listening on \(address)")
        case .adminListening(let address):
            Console.err("faultline: admin API listening on \(address)")
        case .clientTLSFailure(let peer, let reason):
            Console.err("faultline: client \(peer): \(reason)")
        case .pinFailure(let json):
            Console.err("faultline: pin failure report: \(json)")
        case .pinWarning(let upstream, let message):
            Console.err("faultline: warning: upstream \(upstream): \(message)")
        case .reloaded(let generation):
            Console.err("faultline: configuration reloaded (generation \(generation))")
        case .reloadFailed(let message):
            Console.err("faultline: reload refused, previous configuration stays:\n\(message)")
        case .draining(let connections):
            Console.err("faultline: draining \(connections) connection(s)")
        case .drained(let abandoned):
            Console.err(abandoned == 0 ? "faultline: drained, exiting" : "faultline: drain timed out with \(abandoned) connection(s) open, exiting")
        }
    }
}
