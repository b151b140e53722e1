/// What `CertificateInspector` found in a file: certificates (one or a chain), or a single
/// public key taken from a private key, a public key or a certificate request.
public struct InspectedInput: Sendable {
    /// The kind of file.
    public enum Kind: String, Sendable, Hashable {
        /// One certificate.
        case certificate
        /// Several certificates (a PEM bundle), in file order.
        case chain
        /// A private key; the pin is that of its public key.
        case privateKey = "private key"
        /// A SubjectPublicKeyInfo (`PUBLIC KEY`) or PKCS#1 RSA public key.
        case publicKey = "public key"
        /// A PKCS#10 certificate signing request; the pin is that of the requested key.
        case certificateRequest = "certificate request"
    }

    /// The file inspected.
    public let path: String
    /// What it holds.
    public let kind: Kind
    /// `PEM` or `DER`.
    public let encoding: String
    /// The certificates, for `.certificate` and `.chain`; empty otherwise.
    public let certificates: [Certificate]
    /// The key, for `.privateKey`, `.publicKey` and `.certificateRequest`; nil for certificates
    /// (each certificate carries its own).
    public let publicKey: CertificatePublicKey?
    /// The subject of a certificate request (RFC 2253).
    public let requestSubject: String?

    /// The pins found, one per certificate or the single key's.
    public var pins: [String] {
        publicKey.map { [$0.spkiPin] } ?? certificates.map(\.spkiPin)
    }
}
