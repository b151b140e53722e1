/// What `CertificateMinter.initDirectory` did: the CA and leaf in force and every file
/// written or kept.
public struct CertificateDirectoryReport: Sendable {
    /// The directory.
    public let directory: String
    /// The CA (`ca.pem`).
    public let ca: Certificate
    /// Whether the CA was created now (false: an existing one was kept).
    public let createdCA: Bool
    /// The listener leaf (`proxy.pem`).
    public let leaf: Certificate
    /// Paths written, in order.
    public let written: [String]
    /// Paths kept as they were (an existing CA, key files reused).
    public let kept: [String]
    /// The drill certificates minted, with their chain file paths.
    public let drills: [(drill: CertificateDrill, path: String, certificate: Certificate)]

    /// Creates a report.
    public init(directory: String, ca: Certificate, createdCA: Bool, leaf: Certificate, written: [String], kept: [String],
                drills: [(drill: CertificateDrill, path: String, certificate: Certificate)]) {
        self.directory = directory
        self.ca = ca
        self.createdCA = createdCA
        self.leaf = leaf
        self.written = written
        self.kept = kept
        self.drills = drills
    }
}
