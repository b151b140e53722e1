import FaultlineIO
import FaultlineLog
import FaultlineTLS

/// The pin check of a new connection: once per full handshake, before a byte of the
/// request leaves, never on a pooled connection's later exchanges.
extension UpstreamConnection {
    /// What the check decided.
    enum PinOutcome {
        /// Forward: the verdict the connection carries (nil without pins).
        case passed(PinResult?)
        /// Enforce mode and no live pin matched: nothing may be sent.
        case refused(PinRefusal)
    }

    /// Applies the upstream's pins to the verified chain, records and reports the outcome.
    func checkPins() -> PinOutcome {
        Self.checkPins(security: security, socket: socket, address: address, state: state)
    }

    /// The check for any upstream socket whose handshake just completed (HTTP/1 and HTTP/2
    /// connections alike): called from `socketDidConnect`, before anything written is sent.
    static func checkPins(security: UpstreamSecurity?, socket: StreamSocket, address: SocketAddress,
                          state: ProxyServerState) -> PinOutcome {
        guard let security, let session = socket.transformer as? TLSSession else { return .passed(nil) }
        let check: PinEnforcement.Check
        if let rule = security.appPins {
            check = AppPinEnforcement.evaluate(rule, security: security, session: session)
        } else if let pins = security.pins {
            check = PinEnforcement.evaluate(pins, security: security, session: session, address: address)
        } else {
            return .passed(nil)
        }
        state.pinStatus.record(check.observation)
        state.metrics.pinChecked(upstream: security.upstreamName, live: check.verdict, candidatePassed: check.observation.candidatePassed)
        for event in check.events { state.events(event) }
        let log = state.snapshot.log
        if log.pinEvents {
            for record in check.records(address: address, policy: log.policy) { log.write(event: record) }
        }
        if let refusal = check.refusal { return .refused(refusal) }
        return .passed(check.verdict)
    }
}
