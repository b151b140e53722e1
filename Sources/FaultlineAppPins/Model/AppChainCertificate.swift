public import FaultlineTLS

/// One certificate of a chain as pin rules see it: its key's pin, its position and its
/// subject (for reasons).
public struct AppChainCertificate: Sendable, Hashable {
    /// The SPKI SHA-256 of its key.
    public let pin: SPKIPinValue
    /// Leaf, intermediate or root.
    public let position: CertificatePosition
    /// The subject, e.g. `CN=Test Intermediate,O=Example`.
    public let subject: String

    /// Creates an entry.
    public init(pin: SPKIPinValue, position: CertificatePosition, subject: String) {
        self.pin = pin
        self.position = position
        self.subject = subject
    }

    /// The entries of `chain` (leaf first), positions computed the way `FaultlineTLS` does.
    public static func of(_ chain: [Certificate]) -> [AppChainCertificate] {
        zip(chain, CertificatePosition.positions(of: chain)).map { certificate, position in
            AppChainCertificate(pin: certificate.pin, position: position, subject: certificate.subject)
        }
    }

    /// `intermediate CN=…`, the way reasons name a certificate.
    var phrase: String {
        "\(position.rawValue) \(subject)"
    }
}
