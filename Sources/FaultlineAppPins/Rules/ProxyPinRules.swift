public import FaultlineTLS
public import Foundation

/// Faultline's own upstream pins read with the proxy's rules (docs/config.md, "pins"), so
/// that a proxy can stand in the same matrix as the apps: a pin matches any certificate of
/// the verified chain; `report` mode forwards on a mismatch (a report-only failure); after
/// `expires`, `on_expiry: unpinned` stops checking; `off` does not pin. The candidate set is
/// shadow and does not decide. The verdict is `PinSet.evaluate`'s, the proxy's own.
public enum ProxyPinRules {
    /// What the proxy does with `policy` (at `entry`, a config key path) over `chain` at `date`.
    public static func evaluate(_ policy: PinPolicy, entry: String, chain: AppChain, at date: Date) -> AppPinVerdict {
        let observed = chain.verified.enumerated().map { index, certificate in
            PinObservation(index: index, position: certificate.position, subject: certificate.subject, issuer: "", pin: certificate.pin)
        }
        let verdict = PinSet(policy: policy).evaluate(observed: observed, at: date)
        let expiry = policy.expires.map { ISO8601DateFormatter().string(from: $0) } ?? ""
        switch verdict.effectiveMode {
        case .off where verdict.mode == .off:
            return AppPinVerdict(outcome: .notPinned, reason: "pins.mode is off", entry: entry)
        case .off:
            return AppPinVerdict(outcome: .notPinned,
                                 reason: "pins.expires \(expiry) has passed and on_expiry is unpinned: Faultline stops checking pins",
                                 entry: entry)
        case .enforce, .report:
            break
        }
        let expired = verdict.expired ? " (pins.expires \(expiry) has passed; on_expiry enforce keeps checking)" : ""
        if let match = verdict.matches.min(by: { $0.index < $1.index }) {
            return AppPinVerdict(outcome: .pass, reason: "the \(match.position.rawValue) \(match.subject) key is pinned\(expired)",
                                 entry: entry)
        }
        let count = Set(policy.live).count
        let subject = count == 1 ? "the pinned key is not" : "none of the \(count) pinned keys is"
        let chainText = chain.verified.map(\.phrase).joined(separator: ", ")
        let reason = "\(subject) in the verified chain (\(chainText))\(expired)"
        guard verdict.mode == .enforce else {
            return AppPinVerdict(outcome: .reportOnlyFailure,
                                 reason: "would fail, but pins.mode is report: Faultline forwards and logs a pin failure report; \(reason)",
                                 entry: entry)
        }
        return AppPinVerdict(outcome: .fail, reason: reason, entry: entry)
    }

    /// The verdict that stands for several upstreams verifying one name: each must accept
    /// the chain, so the worst wins (nil when there is none).
    public static func worst(_ verdicts: [AppPinVerdict]) -> AppPinVerdict? {
        let rank: [AppPinOutcome: Int] = [.fail: 3, .reportOnlyFailure: 2, .pass: 1, .notPinned: 0]
        return verdicts.max { rank[$0.outcome, default: 0] < rank[$1.outcome, default: 0] }
    }
}
