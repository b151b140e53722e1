import FaultlineTLS
import Foundation

/// Android network security configuration (`ApplicationConfig`, `NetworkSecurityTrustManager`):
/// - the `domain-config` whose `domain` equals the host wins; otherwise the longest domain
///   with `includeSubdomains` that the host is below; otherwise `base-config`, which cannot
///   pin;
/// - a nested `domain-config` inherits its parent's `pin-set` and `trust-anchors` unless it
///   sets its own;
/// - no pins, or a clock past the `pin-set` `expiration` (midnight of that day): not pinned;
/// - a verified chain ending at a trust anchor whose `certificates` entry sets
///   `overridePins` skips the pins; `debug-overrides` anchors (`overridePins` true by
///   default) are added only in debuggable builds;
/// - otherwise any certificate of the verified chain, anchor included, may match.
enum AndroidRules {
    static func evaluate(_ configuration: AppPinConfiguration, host: String, chain: AppChain, at date: Date,
                         build: AppBuildVariant) -> AppPinVerdict {
        let exact = configuration.domains.first { $0.pattern.matchesExactly(host) }
        let covering = configuration.domains.filter { $0.pattern.matches(host) }
        guard let entry = exact ?? covering.max(by: { $0.pattern.domain.count < $1.pattern.domain.count }) else {
            return AppPinVerdict(outcome: .notPinned, reason: "no domain-config covers \(host); base-config cannot pin")
        }
        let pins = Set(entry.pins.map(\.value))
        guard !pins.isEmpty else {
            return AppPinVerdict(outcome: .notPinned, reason: "the domain-config for \(entry.pattern.domain) has no pin-set",
                                 entry: entry.keyPath)
        }
        if let expiration = entry.expiration, date > expiration {
            return AppPinVerdict(outcome: .notPinned,
                                 reason: "the pin-set expired on \(PinText.dayString(expiration)); Android stops enforcing pins after its expiration",
                                 entry: entry.keyPath)
        }
        var anchors = entry.trustAnchors ?? [AppTrustAnchor(source: .system, overridePins: false)]
        var debugSources: Set<AppTrustAnchorSource> = []
        if build == .debuggable, let debug = configuration.overrides.debugTrustAnchors {
            anchors += debug
            debugSources = Set(debug.filter(\.overridePins).map(\.source))
        }
        let matching = anchors.filter { $0.source == chain.anchorSource }
        guard !matching.isEmpty else {
            let trusted = anchors.map(\.source.description).joined(separator: ", ")
            return AppPinVerdict(outcome: .fail,
                                 reason: "the chain ends at a \(chain.anchorSource) anchor, which this configuration does not trust (trust-anchors: \(trusted))",
                                 entry: entry.keyPath)
        }
        if matching.contains(where: \.overridePins) {
            let via = debugSources.contains(chain.anchorSource) ? " (debug-overrides, debuggable build)" : ""
            return AppPinVerdict(outcome: .pass,
                                 reason: "the chain ends at a \(chain.anchorSource) trust anchor with overridePins\(via), so Android skips the pin-set",
                                 entry: entry.keyPath)
        }
        if let match = ChainMatch.first(pins, in: chain.verified) {
            return AppPinVerdict(outcome: .pass, reason: "the \(match.phrase) key is pinned", entry: entry.keyPath)
        }
        return AppPinVerdict(outcome: .fail, reason: ChainMatch.noneMatched(pins, chain), entry: entry.keyPath)
    }
}
