/// One certificate of a chain as pin reports show it: position, subject, issuer and pin.
public struct PinObservation: Sendable, Hashable {
    /// Index in the chain (0 = leaf).
    public let index: Int
    /// Leaf, intermediate or root.
    public let position: CertificatePosition
    /// Subject (RFC 2253).
    public let subject: String
    /// Issuer (RFC 2253).
    public let issuer: String
    /// The SPKI pin of its key.
    public let pin: SPKIPinValue

    /// Creates an observation.
    public init(index: Int, position: CertificatePosition, subject: String, issuer: String, pin: SPKIPinValue) {
        self.index = index
        self.position = position
        self.subject = subject
        self.issuer = issuer
        self.pin = pin
    }

    /// The observations of every certificate of `chain` (leaf first).
    public static func of(_ chain: [Certificate]) -> [PinObservation] {
        let positions = CertificatePosition.positions(of: chain)
        return chain.enumerated().map { index, certificate in
            PinObservation(index: index, position: positions[index], subject: certificate.subject,
                           issuer: certificate.issuer, pin: certificate.pin)
        }
    }
}
