import Foundation
import FaultlineAppPins
import FaultlineTLS

/// Applies an app's pins to a completed handshake with that platform's rules: the chain
/// OpenSSL verified (leaf to anchor) is what the app's rules see, the served chain only
/// explains a failure, expirations are judged as of now. Same path and same outcomes as
/// listed pins: a FAIL in enforce mode is refused before a byte is forwarded.
enum AppPinEnforcement {
    static func evaluate(_ rule: AppPinRule, security: UpstreamSecurity, session: TLSSession) -> PinEnforcement.Check {
        let now = Date()
        let verified = session.verifiedChainDER.compactMap { try? Certificate(derBytes: $0) }
        let served = session.peerChainDER.compactMap { try? Certificate(derBytes: $0) }
        let chain = AppChain(served: served, verified: verified)
        let observed = PinObservation.of(verified)
        let verdict = rule.live.evaluate(chain, at: now)
        let line = rule.live.line(verdict)
        let shadow = rule.candidate.map { candidate in (candidate, candidate.evaluate(chain, at: now)) }
        let candidateLine = shadow.map { $0.0.line($0.1) }
        let enforced = rule.mode != .off
        var events: [ProxyEvent] = []
        if enforced && verdict.outcome == .notPinned {
            events.append(.pinWarning(upstream: security.upstreamName, message: "app pins not enforced: \(line)"))
        }
        if enforced && (verdict.outcome == .fail || verdict.outcome == .reportOnlyFailure) {
            events.append(.pinFailure(json: report(rule, verdict: line, security: security, served: served,
                                                   validated: verified, observed: observed, date: now)))
        }
        let observation = PinStatusBoard.Observation(
            upstream: security.upstreamName,
            livePassed: enforced ? passed(verdict.outcome) : nil,
            candidatePassed: shadow.flatMap { passed($0.1.outcome) },
            expired: rule.live.isExpired(verdict, at: now),
            chain: observed.map { .init(position: $0.position.rawValue, subject: $0.subject, pin: $0.pin.base64) },
            matches: verdict.outcome == .pass ? [line] : [],
            candidateMatches: shadow?.1.outcome == .pass ? candidateLine.map { [$0] } ?? [] : [],
            date: now, serverName: security.serverName, verdict: line, candidateVerdict: candidateLine)
        let refusal = enforced && rule.mode == .enforce && verdict.outcome.blocks
            ? PinRefusal(json: refusalBody(rule, verdict: verdict, line: line, security: security, observed: observed))
            : nil
        var attributes = [(key: "faultline.pin.app", value: rule.live.reference.written),
                          (key: "faultline.pin.app_platform", value: rule.live.configuration.platform.rawValue),
                          (key: "faultline.pin.app_domain", value: rule.live.reference.domain)]
        if let entry = verdict.entry { attributes.append((key: "faultline.pin.app_entry", value: entry)) }
        if let candidateLine { attributes.append((key: "faultline.pin.candidate_verdict", value: candidateLine)) }
        return PinEnforcement.Check(observation: observation, events: events, refusal: refusal,
                                    verdictLine: enforced ? line : nil, appAttributes: attributes)
    }

    /// Pass and fail count in the tallies; NOT PINNED counts in neither (the app checks nothing).
    private static func passed(_ outcome: AppPinOutcome) -> Bool? {
        switch outcome {
        case .pass: true
        case .fail, .reportOnlyFailure: false
        case .notPinned: nil
        }
    }

    /// The 502 body: the evaluator's reason, the rule and the chain, so the mismatch can be fixed.
    private static func refusalBody(_ rule: AppPinRule, verdict: AppPinVerdict, line: String, security: UpstreamSecurity,
                                    observed: [PinObservation]) -> String {
        let binding = rule.live
        let body = AppRefusalBody(
            error: "pin mismatch",
            message: "the upstream's verified certificate chain fails the \(binding.configuration.platform.displayName) "
                + "pin rules of \(binding.reference.written) for \(binding.reference.domain); nothing was forwarded",
            reason: line, upstream: security.upstreamName, host: security.serverName, port: Int(security.port),
            mode: rule.mode.rawValue, app: binding.reference.written, platform: binding.configuration.platform.rawValue,
            domain: binding.reference.domain, entry: verdict.entry,
            expectedPins: knownPins(binding).map { "sha256/\($0)" },
            observedChain: observed.map { .init(position: $0.position.rawValue, subject: $0.subject, pin: $0.pin.description) })
        return PinEnforcement.json(body, fallback: "{\"error\": \"pin mismatch\"}")
    }

    /// A pin failure report with the fields of RFC 7469 §3, the app's pins as known pins.
    private static func report(_ rule: AppPinRule, verdict: String, security: UpstreamSecurity, served: [Certificate],
                               validated: [Certificate], observed: [PinObservation], date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        let entries = rule.live.coveringEntries
        var report = PinEnforcement.FailureReport(
            dateTime: formatter.string(from: date), hostname: security.serverName, port: Int(security.port),
            includeSubdomains: entries.contains { $0.pattern != .exact(rule.live.reference.domain) },
            notedHostname: rule.live.reference.domain,
            servedCertificateChain: served.map(\.pem), validatedCertificateChain: validated.map(\.pem),
            knownPins: knownPins(rule.live).map { "pin-sha256=\"\($0)\"" },
            effectiveExpirationDate: entries.compactMap(\.expiration).min().map { formatter.string(from: $0) },
            upstream: security.upstreamName, mode: rule.mode.rawValue,
            observed: observed.map { "\($0.position.rawValue) \($0.subject) \($0.pin)" })
        report.verdict = verdict
        return PinEnforcement.json(report, fallback: "{\"error\": \"pin mismatch\"}")
    }

    /// The base64 pins of the entries covering the domain, each once, in file order.
    private static func knownPins(_ binding: AppPinBinding) -> [String] {
        var seen: Set<String> = []
        return binding.coveringEntries.flatMap(\.pins).map(\.value.base64).filter { seen.insert($0).inserted }
    }
}
