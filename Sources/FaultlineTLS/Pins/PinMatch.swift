/// One pin that matched one certificate of the verified chain.
public struct PinMatch: Sendable, Hashable {
    /// The pin from the set.
    public let pin: SPKIPinValue
    /// Index in the verified chain (0 = leaf).
    public let index: Int
    /// Leaf, intermediate or root.
    public let position: CertificatePosition
    /// Subject of the matching certificate (RFC 2253).
    public let subject: String

    /// Creates a match.
    public init(pin: SPKIPinValue, index: Int, position: CertificatePosition, subject: String) {
        self.pin = pin
        self.index = index
        self.position = position
        self.subject = subject
    }
}
