public import FaultlineTLS

/// A chain to evaluate: what the server sent, the chain the client verified (leaf to
/// anchor), and where the anchor comes from. Every platform here checks pins on the
/// verified chain; the served chain only explains failures (a pinned key that was sent
/// but is not on the verified path).
public struct AppChain: Sendable, Hashable {
    /// The certificates as served, leaf first.
    public let served: [AppChainCertificate]
    /// The verified path, leaf first, ending at the trust anchor.
    public let verified: [AppChainCertificate]
    /// Where the verified chain's anchor comes from (Android `overridePins` depends on it).
    public let anchorSource: AppTrustAnchorSource

    /// Creates a chain from its entries.
    public init(served: [AppChainCertificate], verified: [AppChainCertificate], anchorSource: AppTrustAnchorSource = .system) {
        self.served = served
        self.verified = verified
        self.anchorSource = anchorSource
    }

    /// Creates a chain from certificates; `verified` nil means the served chain is the
    /// verified one (it must then end at its anchor).
    public init(served: [Certificate], verified: [Certificate]? = nil, anchorSource: AppTrustAnchorSource = .system) {
        self.served = AppChainCertificate.of(served)
        self.verified = AppChainCertificate.of(verified ?? served)
        self.anchorSource = anchorSource
    }

    /// The verified leaf, nil for an empty chain.
    public var leaf: AppChainCertificate? {
        verified.first
    }

    /// The verified CA certificates (everything after the leaf).
    public var authorities: ArraySlice<AppChainCertificate> {
        verified.dropFirst()
    }
}
