import FaultlineLog

extension ProxyEvent {
    /// The event with every text that came from a peer or a file passed through `redactor`.
    func redacted(by redactor: Redactor) -> ProxyEvent {
        switch self {
        case .clientTLSFailure(let peer, let reason):
            .clientTLSFailure(peer: peer, reason: redactor.redact(text: reason, field: "event").text)
        case .pinFailure(let json):
            .pinFailure(json: redactor.redact(text: json, field: "event").text)
        case .pinWarning(let upstream, let message):
            .pinWarning(upstream: upstream, message: redactor.redact(text: message, field: "event").text)
        case .reloadFailed(let message):
            .reloadFailed(redactor.redact(text: message, field: "event").text)
        case .workers, .listening, .adminListening, .scenario, .reloaded, .draining, .drained, .connectionsCapped:
            self
        }
    }
}
