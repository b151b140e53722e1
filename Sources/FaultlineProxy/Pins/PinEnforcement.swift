import Foundation
import FaultlineIO
import FaultlineConfig
import FaultlineTLS

/// The body of the 502 a client gets when enforce mode refuses a chain.
struct PinRefusal {
    let json: String
}

/// Applies an upstream's pins to a completed handshake: once per full handshake, never on a
/// pooled connection's later requests, so pinning costs nothing per request.
enum PinEnforcement {
    /// What one handshake's check decided.
    struct Check {
        let observation: PinStatusBoard.Observation
        let events: [ProxyEvent]
        /// Set when the chain must be refused (enforce mode, no live pin matched).
        let refusal: PinRefusal?
        /// Pins from an app file: the evaluator's verdict with the rule it applied, the
        /// record's message (nil when the check is off).
        var verdictLine: String?
        /// Pins from an app file: which file, platform, domain and entry, as record attributes.
        var appAttributes: [(key: String, value: String)] = []
    }

    static func evaluate(_ pins: PinSet, security: UpstreamSecurity, session: TLSSession, address: SocketAddress) -> Check {
        let now = Date()
        let chain = session.verifiedChainDER.compactMap { try? Certificate(derBytes: $0) }
        let verdict = pins.evaluate(chain: chain, at: now)
        let policy = pins.policy
        var events: [ProxyEvent] = []
        if verdict.expired {
            let date = policy.expires.map { ISO8601DateFormatter().string(from: $0) } ?? "an earlier date"
            events.append(.pinWarning(upstream: security.upstreamName,
                                      message: "pin set expired on \(date): behaving as \(policy.onExpiry.rawValue)"))
        }
        if security.chainWarningsGiven.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged {
            let loadTime = Set(PinWarnings.evaluate(policy: policy, now: now))
            for warning in PinWarnings.evaluate(policy: policy, now: now, chain: chain) where !loadTime.contains(warning) {
                events.append(.pinWarning(upstream: security.upstreamName, message: warning))
            }
        }
        let served = session.peerChainDER.compactMap { try? Certificate(derBytes: $0) }
        if policy.mode != .off && !verdict.matched {
            events.append(.pinFailure(json: report(security: security, policy: policy, verdict: verdict,
                                                   served: served, validated: chain, date: now)))
        }
        let observation = PinStatusBoard.Observation(
            upstream: security.upstreamName,
            livePassed: policy.mode == .off ? nil : verdict.matched,
            candidatePassed: verdict.candidate?.passed,
            expired: verdict.expired,
            chain: verdict.observed.map { .init(position: $0.position.rawValue, subject: $0.subject, pin: $0.pin.base64) },
            matches: verdict.matches.map { "\($0.pin) matched the \($0.position.rawValue) \($0.subject)" },
            candidateMatches: (verdict.candidate?.matches ?? []).map { "\($0.pin) matched the \($0.position.rawValue) \($0.subject)" },
            date: now, serverName: security.serverName)
        let refusal = verdict.blocks ? PinRefusal(json: refusalBody(security: security, policy: policy, verdict: verdict)) : nil
        return Check(observation: observation, events: events, refusal: refusal)
    }

    /// The 502 body: what was expected and what was seen, so the mismatch can be fixed.
    private static func refusalBody(security: UpstreamSecurity, policy: PinPolicy, verdict: PinVerdict) -> String {
        let body = RefusalBody(
            error: "pin mismatch",
            message: "the upstream's verified certificate chain matched none of the configured pins; nothing was forwarded",
            upstream: security.upstreamName, host: security.serverName, port: Int(security.port), mode: policy.mode.rawValue,
            expectedPins: policy.live.map(\.description),
            observedChain: verdict.observed.map { ObservedCertificate(position: $0.position.rawValue, subject: $0.subject,
                                                                      pin: $0.pin.description) })
        return json(body, fallback: Self.fallback)
    }

    /// A pin failure report with the fields of RFC 7469 §3, plus which upstream and mode.
    private static func report(security: UpstreamSecurity, policy: PinPolicy, verdict: PinVerdict,
                               served: [Certificate], validated: [Certificate], date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        let report = FailureReport(
            dateTime: formatter.string(from: date), hostname: security.serverName, port: Int(security.port),
            includeSubdomains: false, notedHostname: security.serverName,
            servedCertificateChain: served.map(\.pem), validatedCertificateChain: validated.map(\.pem),
            knownPins: policy.live.map { "pin-sha256=\"\($0.base64)\"" },
            effectiveExpirationDate: policy.expires.map { formatter.string(from: $0) },
            upstream: security.upstreamName, mode: policy.mode.rawValue,
            observed: verdict.observed.map { "\($0.position.rawValue) \($0.subject) \($0.pin)" })
        return json(report, fallback: Self.fallback)
    }

    /// What is said if a report cannot be encoded.
    private static let fallback = "{\"error\": \"pin mismatch\"}"
}
