import FaultlineHTTP
import FaultlineLog

/// A client that refuses the certificate Faultline minted for an intercepted host: counted
/// per host, recorded as a `tls` record, and after enough refusals the host passes through.
extension DownstreamConnection {
    /// The alerts a TLS client sends when it does not accept the server's certificate
    /// (RFC 8446 §6.2: bad_certificate, unsupported_certificate, certificate_unknown, unknown_ca).
    static func isCertificateRefusal(_ reason: String) -> Bool {
        let lower = reason.lowercased()
        return ["alert 'unknown ca'", "alert 'bad certificate'", "alert 'certificate unknown'",
                "alert 'unsupported certificate'"].contains { lower.contains($0) }
    }

    func noteInterceptRefusal(_ reason: String) {
        guard let interception else { return }
        let host = interception.destination.target.host
        let entry = context.state.interceptRefusals.record(host: host, reason: reason,
                                                           threshold: interception.passThroughAfterRefusals,
                                                           appPins: appPinNote(interception.destination.target))
        var message = "the client refused the intercepted certificate for \(host): the app pins this host or does not trust the Faultline CA (refusal \(entry.refusals))"
        if let appPins = entry.appPins { message += "; \(appPins)" }
        if entry.passThrough { message += "; \(host) now passes through" }
        context.state.events(.clientTLSFailure(peer: clientIP, reason: message))
        let log = context.snapshot.log
        guard log.tlsEvents else { return }
        var record = LogRecord(kind: .tls)
        record.clientAddress = clientIP
        record.clientPort = clientPort
        record.scheme = "https"
        record.host = host
        record.serverPort = Int(interception.destination.target.port)
        record.setError(type: "intercept_refused", message: reason, policy: log.policy)
        record.setMessage(message, policy: log.policy)
        log.write(event: record)
    }

    /// What the app pin file configured for the host (`pins.app` of the upstream for that
    /// exact host and port) says about the real host's chain, as last seen; nil without one.
    private func appPinNote(_ target: ForwardTarget) -> String? {
        guard let upstream = context.snapshot.configuredUpstream(for: target, tls: true),
              let appPins = upstream.tls?.appPins else { return nil }
        let file = "the app pin file \(appPins.live.written) (upstream \(upstream.name))"
        guard let verdict = context.state.pinStatus.lastVerdict(upstream: upstream.name) else {
            return "\(file) has not been checked against the real chain yet (it is on the first connection Faultline makes to \(target.description))"
        }
        return "\(file) on the real chain: \(verdict)"
    }
}
