/// Who sent a report, with what only that format carries.
enum PinReportSource: Sendable, Equatable {
    /// A TrustKit app (`kTSKReportUris`).
    case trustKit(PinReportApp)
    /// An RFC 7469 §3 report: the chain as served, and the pins' effective expiration date.
    case hpkp(servedChain: [PinReportCertificate], effectiveExpirationDate: String?)

    /// `trustkit` or `hpkp`, the `format` label.
    var format: String {
        switch self {
        case .trustKit: "trustkit"
        case .hpkp: "hpkp"
        }
    }
}
