/// Which certificates of the verified chain a pin may match.
public enum AppPinScope: String, Sendable, Hashable, CaseIterable {
    /// The leaf only (ATS `NSPinnedLeafIdentities`).
    case leaf
    /// Any CA certificate: intermediates and the anchor, never the leaf (ATS `NSPinnedCAIdentities`).
    case ca
    /// Any certificate of the chain (Android, TrustKit, OkHttp).
    case anyInChain = "any"

    /// How the scope reads in a reason: "leaf keys", "CA keys", "keys".
    var keysPhrase: String {
        switch self {
        case .leaf: "leaf keys"
        case .ca: "CA keys"
        case .anyInChain: "keys"
        }
    }
}
