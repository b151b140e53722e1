public import FoundationEssentials

extension CertificateMinter {
    /// A drill certificate for `names`: issued by `issuer` (except `.untrusted`, issued by a
    /// throwaway CA whose key is discarded), with `key` or a new EC P-256 key.
    public static func drill(_ drill: CertificateDrill, names: [String], issuer: CertificateAuthority,
                             key: CertificateKey? = nil, now: Date) throws(CertificateError) -> CertificateLeaf {
        let chosen: CertificateKey
        if let key { chosen = key } else { chosen = try CertificateKey.generate() }
        let key = chosen
        let validity = CertificateValidity.days(90, from: now)
        switch drill {
        case .otherKey:
            return try leaf(names: names, key: key, issuer: issuer, validity: validity)
        case .expired:
            return try leaf(names: names, key: key, issuer: issuer, validity: .expired(at: now))
        case .wrongHost:
            return try leaf(names: [CertificateDrill.wrongHostName], key: key, issuer: issuer, validity: validity)
        case .untrusted:
            let stranger = try rootCA(commonName: "Faultline untrusted drill CA", organization: "Nobody trusts this",
                                      key: try CertificateKey.generate(), validity: .days(90, from: now))
            return try leaf(names: names, key: key, issuer: stranger, validity: validity)
        }
    }
}
