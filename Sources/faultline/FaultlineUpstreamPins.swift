import FaultlineAppPins
import FaultlineConfig
import FaultlineTLS
import Foundation

/// Faultline's own upstream pins read as an app configuration, so that `pins app` can put
/// the proxy in the same matrix as the apps: each upstream's `pins` applies to the name it
/// verifies (`server_name`), with the proxy's rules (docs/config.md, "pins"): a pin matches
/// any certificate of the verified chain; `report` mode forwards on a mismatch (a
/// report-only failure); after `expires`, `on_expiry: unpinned` stops checking; `off` does
/// not pin. The candidate set is shadow and does not decide.
struct FaultlineUpstreamPins {
    /// One pinned upstream.
    struct Entry {
        let upstream: String
        let host: String
        let policy: PinPolicy

        var keyPath: String { "upstreams.\(upstream).pins" }
    }

    let file: String
    let entries: [Entry]
    let warnings: [String]

    /// Whether `data` looks like a Faultline config rather than a TrustKit JSON: an object
    /// with `upstreams` and none of TrustKit's keys.
    static func recognizes(_ data: Data) -> Bool {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return false }
        let trustKit = ["TSKConfiguration", "TSKPinnedDomains", "kTSKPinnedDomains"]
        return object["upstreams"] != nil && !trustKit.contains { object[$0] != nil }
    }

    /// Loads the config at `path` with the proxy's own loader; its errors name the field path.
    init(path: String) throws(UsageError) {
        do {
            let (config, warnings) = try ConfigLoader.loadWithWarnings(path: path)
            file = path
            entries = config.upstreams.compactMap { upstream in
                guard let tls = upstream.tls, let policy = tls.pins else { return nil }
                return Entry(upstream: upstream.name, host: HostPattern.normalize(tls.serverName), policy: policy)
            }
            self.warnings = warnings.map(\.description)
        } catch {
            throw UsageError(error.withFile(path).description)
        }
    }

    /// The names the pinned upstreams verify.
    var hosts: [String] {
        entries.map(\.host)
    }

    /// What the proxy does connecting to `host` over `chain` at `date`; several upstreams
    /// on one name must all accept the chain (the worst verdict wins).
    func evaluate(host: String, chain: AppChain, at date: Date) -> AppPinVerdict {
        let name = HostPattern.normalize(host)
        let verdicts = entries.filter { $0.host == name }.map { Self.evaluate($0, chain: chain, at: date) }
        let rank: [AppPinOutcome: Int] = [.fail: 3, .reportOnlyFailure: 2, .pass: 1, .notPinned: 0]
        return verdicts.max { rank[$0.outcome, default: 0] < rank[$1.outcome, default: 0] }
            ?? AppPinVerdict(outcome: .notPinned, reason: "no upstream with pins verifies \(name)")
    }

    private static func evaluate(_ entry: Entry, chain: AppChain, at date: Date) -> AppPinVerdict {
        let policy = entry.policy
        let expiry = policy.expires.map { ISO8601DateFormatter().string(from: $0) } ?? ""
        switch policy.effectiveMode(at: date) {
        case .off where policy.mode == .off:
            return AppPinVerdict(outcome: .notPinned, reason: "pins.mode is off", entry: entry.keyPath)
        case .off:
            return AppPinVerdict(outcome: .notPinned,
                                 reason: "pins.expires \(expiry) has passed and on_expiry is unpinned: Faultline stops checking pins",
                                 entry: entry.keyPath)
        case .enforce, .report:
            break
        }
        let observed = chain.verified.enumerated().map { index, certificate in
            PinObservation(index: index, position: certificate.position, subject: certificate.subject, issuer: "", pin: certificate.pin)
        }
        let expired = policy.isExpired(at: date) ? " (pins.expires \(expiry) has passed; on_expiry enforce keeps checking)" : ""
        if let match = PinSet.matches(of: policy.live, in: observed).min(by: { $0.index < $1.index }) {
            return AppPinVerdict(outcome: .pass, reason: "the \(match.position.rawValue) \(match.subject) key is pinned\(expired)",
                                 entry: entry.keyPath)
        }
        let count = Set(policy.live).count
        let subject = count == 1 ? "the pinned key is not" : "none of the \(count) pinned keys is"
        let chainText = chain.verified.map { "\($0.position.rawValue) \($0.subject)" }.joined(separator: ", ")
        let reason = "\(subject) in the verified chain (\(chainText))\(expired)"
        guard policy.mode == .enforce else {
            return AppPinVerdict(outcome: .reportOnlyFailure,
                                 reason: "would fail, but pins.mode is report: Faultline forwards and logs a pin failure report; \(reason)",
                                 entry: entry.keyPath)
        }
        return AppPinVerdict(outcome: .fail, reason: reason, entry: entry.keyPath)
    }
}
