/// A minted end-entity certificate with its key and the chain to serve (leaf first).
public struct CertificateLeaf: Sendable {
    /// The leaf certificate.
    public let certificate: Certificate
    /// Its private key.
    public let key: CertificateKey
    /// The leaf followed by the intermediates of its issuer (never the root).
    public let chain: [Certificate]

    /// Creates a leaf bundle.
    public init(certificate: Certificate, key: CertificateKey, chain: [Certificate]) {
        self.certificate = certificate
        self.key = key
        self.chain = chain
    }

    /// The chain as concatenated PEM blocks, as TLS servers load it.
    public var chainPEM: String {
        chain.map(\.pem).joined()
    }
}
