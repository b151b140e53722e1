/// A CA that can sign: its certificate, its key, and the certificates a leaf it issues
/// is served with (empty for a root; the intermediate and those above it, below the root).
public struct CertificateAuthority: Sendable {
    /// The CA certificate.
    public let certificate: Certificate
    /// The CA's private key.
    public let key: CertificateKey
    /// What to serve after a leaf this CA issued (never the root).
    public let intermediates: [Certificate]

    /// Pairs a CA certificate with its key; `intermediates` as described above.
    public init(certificate: Certificate, key: CertificateKey, intermediates: [Certificate] = []) throws(CertificateError) {
        guard key.matches(certificate) else {
            throw CertificateError("the CA key does not match the CA certificate \(certificate.subject)")
        }
        self.certificate = certificate
        self.key = key
        self.intermediates = intermediates
    }
}
