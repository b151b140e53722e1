/// An alternate certificate that a client must refuse, to prove it fails closed.
public enum CertificateDrill: String, Sendable, Hashable, CaseIterable {
    /// Same names and CA, but a new key: refused by a pinned client.
    case otherKey = "other-key"
    /// Same names and CA, but its validity ended yesterday.
    case expired
    /// Same CA, but issued for a name the client does not ask for.
    case wrongHost = "wrong-host"
    /// Same names, but signed by a throwaway CA nobody trusts.
    case untrusted

    /// The certificate chain file name, e.g. `drill-other-key.pem`.
    public var certificateFile: String {
        "drill-\(rawValue).pem"
    }

    /// The key file name, e.g. `drill-other-key-key.pem`.
    public var keyFile: String {
        "drill-\(rawValue)-key.pem"
    }

    /// What a client should say when presented with it.
    public var summary: String {
        switch self {
        case .otherKey: return "new key, same names and CA: a pinned client must refuse it"
        case .expired: return "expired yesterday: every client must refuse it"
        case .wrongHost: return "issued for \(CertificateDrill.wrongHostName): a client checking the host name must refuse it"
        case .untrusted: return "signed by a throwaway CA: a client trusting only ca.pem must refuse it"
        }
    }

    /// The only name in the wrong-host drill certificate.
    public static let wrongHostName = "wrong-host.faultline.invalid"
}
