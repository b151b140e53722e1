import FaultlineTLS
import Foundation

/// TrustKit (`TSKPinningValidator`, `getPinningConfigurationKeyForDomain`, `verifyPublicKeyPin`):
/// - the entry named exactly like the host applies; otherwise an entry with
///   `TSKIncludeSubdomains` that the host is below (the most specific one here; TrustKit
///   takes the first in dictionary order);
/// - past `TSKExpirationDate` (midnight UTC), or with `kSKExcludeSubdomainFromParentPolicy`,
///   the host is not pinned;
/// - any certificate of the verified chain, anchor included, may match;
/// - `TSKEnforcePinning` false: a mismatch is reported and the connection goes ahead.
enum TrustKitRules {
    static func evaluate(_ configuration: AppPinConfiguration, host: String, chain: AppChain, at date: Date) -> AppPinVerdict {
        let exact = configuration.domains.first { $0.pattern.matchesExactly(host) }
        let covering = configuration.domains.filter { $0.pattern.matches(host) }
        guard let entry = exact ?? covering.max(by: { $0.pattern.domain.count < $1.pattern.domain.count }) else {
            return AppPinVerdict(outcome: .notPinned, reason: "no TSKPinnedDomains entry covers \(host)")
        }
        if let expiration = entry.expiration, expiration < date {
            return AppPinVerdict(outcome: .notPinned,
                                 reason: "TSKExpirationDate \(PinText.dayString(expiration)) has passed; TrustKit no longer pins \(host)",
                                 entry: entry.keyPath)
        }
        if entry.excludedFromParent {
            return AppPinVerdict(outcome: .notPinned, reason: "\(entry.pattern.domain) is excluded from its parent domain's policy",
                                 entry: entry.keyPath)
        }
        let pins = Set(entry.pins.map(\.value))
        if let match = ChainMatch.first(pins, in: chain.verified) {
            return AppPinVerdict(outcome: .pass, reason: "the \(match.phrase) key is pinned", entry: entry.keyPath)
        }
        let reason = ChainMatch.noneMatched(pins, chain)
        guard entry.enforce else {
            let target = entry.reportURIs.isEmpty ? "" : " to \(entry.reportURIs.joined(separator: ", "))"
            return AppPinVerdict(outcome: .reportOnlyFailure,
                                 reason: "would fail, but TSKEnforcePinning is false: TrustKit connects and sends a pin failure report\(target); \(reason)",
                                 entry: entry.keyPath)
        }
        return AppPinVerdict(outcome: .fail, reason: reason, entry: entry.keyPath)
    }
}
