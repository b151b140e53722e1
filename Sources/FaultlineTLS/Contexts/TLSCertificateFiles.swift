/// A certificate chain and its private key, both PEM files (DER accepted for a single
/// certificate or key), as a listener presents them.
public struct TLSCertificateFiles: Sendable, Equatable {
    /// Leaf first, then intermediates; the root may be left out.
    public var certificateChainFile: String
    /// The unencrypted private key of the leaf.
    public var privateKeyFile: String

    /// Pairs a chain file with its key file.
    public init(certificateChainFile: String, privateKeyFile: String) {
        self.certificateChainFile = certificateChainFile
        self.privateKeyFile = privateKeyFile
    }
}
