import FaultlineTLS

/// OkHttp `CertificatePinner`:
/// - every `add` whose pattern matches the host contributes its pins (any match is
///   enough); `host` matches itself only, `*.domain` exactly one label below the domain,
///   `**.domain` the domain and any depth below it;
/// - pins are compared with every certificate of the cleaned chain (the verified path
///   built by the chain cleaner, anchor included);
/// - no expiration, no report-only mode.
enum OkHttpRules {
    static func evaluate(_ configuration: AppPinConfiguration, host: String, chain: AppChain) -> AppPinVerdict {
        let entries = configuration.domains.filter { $0.pattern.matches(host) }
        guard !entries.isEmpty else {
            return AppPinVerdict(outcome: .notPinned, reason: "no CertificatePinner pattern matches \(host)" + patternHint(configuration, host))
        }
        let entryName = entries.map(\.keyPath).joined(separator: ", ")
        let pins = Set(entries.flatMap(\.pins).map(\.value))
        guard !pins.isEmpty else {
            return AppPinVerdict(outcome: .notPinned, reason: "the matching entries hold no SHA-256 pin to compare", entry: entryName)
        }
        if let match = ChainMatch.first(pins, in: chain.verified) {
            return AppPinVerdict(outcome: .pass, reason: "the \(match.phrase) key is pinned", entry: entryName)
        }
        return AppPinVerdict(outcome: .fail, reason: ChainMatch.noneMatched(pins, chain), entry: entryName)
    }

    /// Points at a `*.` pattern that looks like it was meant to cover the host.
    private static func patternHint(_ configuration: AppPinConfiguration, _ host: String) -> String {
        for entry in configuration.domains {
            guard case .oneLabelBelow(let domain) = entry.pattern, host == domain || host.hasSuffix("." + domain) else { continue }
            return " (*.\(domain) matches exactly one label below \(domain); **.\(domain) would cover \(host))"
        }
        return ""
    }
}
