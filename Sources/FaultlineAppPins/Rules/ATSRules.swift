import FaultlineTLS

/// App Transport Security (Apple Security framework, `SecPolicy` ATS pinning):
/// - every `NSPinnedDomains` key equal to the host applies, and so does a key equal to the
///   host's parent domain (the host minus its first label) when it sets
///   `NSIncludesSubdomains`; deeper names are not covered;
/// - leaf identities are compared with the leaf only; CA identities with every certificate
///   of the verified path after the leaf, the anchor included;
/// - when both kinds are set, both checks must pass; a declared but empty list matches
///   nothing.
enum ATSRules {
    static func evaluate(_ configuration: AppPinConfiguration, host: String, chain: AppChain) -> AppPinVerdict {
        let entries = configuration.domains.filter { $0.pattern.matches(host) }
        guard !entries.isEmpty else {
            return AppPinVerdict(outcome: .notPinned, reason: "no NSPinnedDomains entry covers \(host)")
        }
        let entryName = entries.map(\.keyPath).joined(separator: ", ")
        let leafDeclared = entries.contains { $0.declaredScopes.contains(.leaf) }
        let caDeclared = entries.contains { $0.declaredScopes.contains(.ca) }
        let leafPins = Set(entries.flatMap { $0.pins(.leaf) }.map(\.value))
        let caPins = Set(entries.flatMap { $0.pins(.ca) }.map(\.value))
        guard let leaf = chain.leaf else {
            return AppPinVerdict(outcome: .fail, reason: "the verified chain is empty", entry: entryName)
        }
        let leafMatched = leafPins.contains(leaf.pin)
        let caMatch = ChainMatch.first(caPins, in: chain.authorities)
        let verdict: (AppPinOutcome, String)
        switch (leafDeclared, caDeclared) {
        case (true, false):
            verdict = leafMatched ? (.pass, "the leaf key is pinned")
                : (.fail, "pins only leaf keys; the chain's leaf key is not among them" + leafHint(leafPins, chain))
        case (false, true):
            verdict = caMatch.map { (.pass, "a CA key is pinned (\($0.phrase))") }
                ?? (.fail, "pins only CA keys; no CA certificate of the verified chain has one of them" + caHint(caPins, chain))
        default:
            switch (leafMatched, caMatch) {
            case (true, let ca?):
                verdict = (.pass, "the leaf key and a CA key (\(ca.phrase)) are both pinned, as ATS requires when both are set")
            case (false, let ca?):
                verdict = (.fail, "pins leaf and CA keys and ATS requires both; the CA key matches (\(ca.phrase)) but the leaf key is not among the leaf identities")
            case (true, nil):
                verdict = (.fail, "pins leaf and CA keys and ATS requires both; the leaf key matches but no CA certificate's key is among the CA identities")
            case (false, nil):
                verdict = (.fail, "pins leaf and CA keys and ATS requires both; neither the leaf key nor any CA key is pinned")
            }
        }
        return AppPinVerdict(outcome: verdict.0, reason: verdict.1, entry: entryName)
    }

    /// Explains a leaf identity that names a CA of the chain.
    private static func leafHint(_ pins: Set<SPKIPinValue>, _ chain: AppChain) -> String {
        if let ca = ChainMatch.first(pins, in: chain.authorities) {
            return " (a leaf identity matches the \(ca.phrase), but ATS compares leaf identities with the leaf only)"
        }
        return ChainMatch.servedOnlyHint(pins, chain)
    }

    /// Explains a CA identity that names the leaf.
    private static func caHint(_ pins: Set<SPKIPinValue>, _ chain: AppChain) -> String {
        if let leaf = chain.leaf, pins.contains(leaf.pin) {
            return " (a CA identity matches the leaf, but ATS compares CA identities with CA certificates only)"
        }
        return ChainMatch.servedOnlyHint(pins, chain)
    }
}
