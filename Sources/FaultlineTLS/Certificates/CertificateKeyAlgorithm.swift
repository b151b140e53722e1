/// The kind of key the minter generates.
public enum CertificateKeyAlgorithm: Sendable, Hashable {
    /// ECDSA on NIST P-256 (prime256v1), the default: small, fast, accepted everywhere.
    case ecP256
    /// RSA with a modulus of `bits` (2048 or more).
    case rsa(bits: Int)

    /// RSA 2048, for peers that want RSA.
    public static let rsa2048 = CertificateKeyAlgorithm.rsa(bits: 2048)
}
