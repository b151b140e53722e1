import FaultlineTLS

/// One certificate of a reported chain as Faultline keeps it: never the certificate itself,
/// only where it sits, whom it names and its key's SPKI pin.
struct PinReportCertificate: Sendable, Encodable, Equatable {
    let position: String
    let subject: String
    /// `sha256/…`, as pins are spelled in the configuration.
    let pin: String

    /// The entries of `chain`, leaf first, positions computed as everywhere else.
    static func of(_ chain: [Certificate]) -> [PinReportCertificate] {
        zip(chain, CertificatePosition.positions(of: chain)).map { certificate, position in
            PinReportCertificate(position: position.rawValue, subject: certificate.subject, pin: "sha256/" + certificate.spkiPin)
        }
    }
}
