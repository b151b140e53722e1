public import FoundationEssentials

/// The warnings a pin set deserves, at config load (no chain yet) or against a served chain:
/// too few pins, no real backup, matches only on a CA, expiry near or passed. Pure.
public enum PinWarnings {
    /// How close an `expires` date must be to warn.
    public static let expiryWarningDays = 30

    /// Warnings for `live` (and `candidate`) pins at `now`. `chain` is the served chain,
    /// leaf first; the warnings that need it are skipped when it is empty.
    public static func evaluate(live: [SPKIPinValue], candidate: [SPKIPinValue] = [], expires: Date?, now: Date,
                                chain: [Certificate] = [], onExpiry: PinExpiryBehaviour = .unpinned) -> [String] {
        var warnings: [String] = []
        let unique = Set(live)
        if unique.count < 2 {
            warnings.append("only \(unique.count) distinct pin\(unique.count == 1 ? "" : "s"): ship at least two "
                + "(the live key and a backup key kept offline), or one key change locks every client out")
        }
        if !candidate.isEmpty && Set(candidate).count < 2 {
            warnings.append("the candidate set has fewer than two pins: give it a backup pin too")
        }
        if !chain.isEmpty {
            warnings.append(contentsOf: chainWarnings(live: live, chain: chain))
        }
        if let expires {
            warnings.append(contentsOf: expiryWarnings(expires: expires, now: now, onExpiry: onExpiry))
        }
        return warnings
    }

    /// `evaluate` for a policy.
    public static func evaluate(policy: PinPolicy, now: Date, chain: [Certificate] = []) -> [String] {
        evaluate(live: policy.live, candidate: policy.candidate, expires: policy.expires, now: now, chain: chain,
                 onExpiry: policy.onExpiry)
    }

    private static func chainWarnings(live: [SPKIPinValue], chain: [Certificate]) -> [String] {
        var warnings: [String] = []
        let observed = PinObservation.of(chain)
        let served = Set(observed.map(\.pin))
        if !live.isEmpty && live.allSatisfy({ served.contains($0) }) {
            warnings.append("no backup pin: every pin matches the currently served chain; add the pin of a key "
                + "that is not deployed yet, or a rotation locks clients out")
        }
        let matches = PinSet.matches(of: live, in: observed)
        if !matches.isEmpty && !matches.contains(where: { $0.position == .leaf }) {
            let positions = Set(matches.map(\.position.rawValue)).sorted().joined(separator: " and ")
            warnings.append("pins match only the \(positions) (\(Set(matches.map(\.subject)).sorted().joined(separator: "; "))): "
                + "any certificate that CA issues passes, and a change of CA locks clients out")
        }
        return warnings
    }

    private static func expiryWarnings(expires: Date, now: Date, onExpiry: PinExpiryBehaviour) -> [String] {
        let day = CertificateTime.day(expires)
        if now >= expires {
            return ["pin set expired on \(day): behaving as `\(onExpiry.rawValue)`"]
        }
        let seconds = expires.timeIntervalSince(now)
        if seconds <= TimeInterval(expiryWarningDays * 86_400) {
            let days = Int((seconds / 86_400).rounded(.up))
            return ["pin set expires on \(day) (in \(days) day\(days == 1 ? "" : "s")): ship the next set before then"]
        }
        return []
    }
}
