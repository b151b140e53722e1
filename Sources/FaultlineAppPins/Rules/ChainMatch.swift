import FaultlineTLS

/// Matching helpers shared by the platform rules.
enum ChainMatch {
    /// The first certificate (leaf first) whose key is in `pins`.
    static func first(_ pins: Set<SPKIPinValue>, in certificates: some Sequence<AppChainCertificate>) -> AppChainCertificate? {
        certificates.first { pins.contains($0.pin) }
    }

    /// ` (the served chain has a pinned key, …, but it is not on the verified path)` when
    /// that explains a failure, else empty.
    static func servedOnlyHint(_ pins: Set<SPKIPinValue>, _ chain: AppChain) -> String {
        let verified = Set(chain.verified.map(\.pin))
        guard let served = chain.served.first(where: { pins.contains($0.pin) && !verified.contains($0.pin) }) else { return "" }
        return " (the served \(served.phrase) has a pinned key, but it is not on the verified path, which is what is checked)"
    }

    /// `none of the 2 pinned keys is in the verified chain (leaf CN=…, intermediate CN=…)`.
    static func noneMatched(_ pins: Set<SPKIPinValue>, _ chain: AppChain) -> String {
        let subject = pins.count == 1 ? "the pinned key is not" : "none of the \(pins.count) pinned keys is"
        let chainText = chain.verified.map(\.phrase).joined(separator: ", ")
        return "\(subject) in the verified chain (\(chainText))" + servedOnlyHint(pins, chain)
    }
}
