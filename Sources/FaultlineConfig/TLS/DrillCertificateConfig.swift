/// An alternate certificate a listener presents instead of its normal one, so a team can
/// prove their app refuses it (another key, expired, wrong host name, untrusted CA).
public struct DrillCertificateConfig: Sendable, Equatable {
    /// PEM certificate (chain) file, resolved against the config file's directory.
    public let certificate: String
    /// PEM private key file, resolved against the config file's directory.
    public let key: String
    /// What the drill is about, for logs (e.g. `expired`, `wrong-host`).
    public let label: String

    /// Default for `label`.
    public static let defaultLabel = "drill"

    /// Creates a drill certificate.
    public init(certificate: String, key: String, label: String = DrillCertificateConfig.defaultLabel) {
        self.certificate = certificate
        self.key = key
        self.label = label
    }
}
