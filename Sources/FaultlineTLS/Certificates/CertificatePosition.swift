/// Where a certificate sits in a chain (leaf first): index 0 is the leaf, the last is the
/// root when it is self-signed, everything else is an intermediate.
public enum CertificatePosition: String, Sendable, Hashable, CaseIterable {
    /// The server's own certificate.
    case leaf
    /// A CA certificate between the leaf and the root.
    case intermediate
    /// The self-signed trust anchor at the end of the chain.
    case root

    /// The position of the certificate at `index` in a chain of `count` certificates whose
    /// last one is self-signed or not.
    public static func of(index: Int, count: Int, lastIsSelfSigned: Bool) -> CertificatePosition {
        if index == 0 { return .leaf }
        if index == count - 1 && lastIsSelfSigned { return .root }
        return .intermediate
    }

    /// The positions of every certificate of `chain`, leaf first.
    public static func positions(of chain: [Certificate]) -> [CertificatePosition] {
        let lastIsSelfSigned = chain.last?.isSelfSigned ?? false
        return chain.indices.map { of(index: $0, count: chain.count, lastIsSelfSigned: lastIsSelfSigned) }
    }
}
