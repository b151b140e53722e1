/// TrustKit's `validation-result`: its `TSKTrustEvaluationResult` number and name.
enum PinReportValidationResult: Int, Sendable, CaseIterable {
    case success = 0
    case failedNoMatchingPin = 1
    case failedInvalidCertificateChain = 2
    case errorInvalidParameters = 3
    case failedUserDefinedTrustAnchor = 4
    case errorCouldNotGenerateSpkiHash = 5

    /// `failed-no-matching-pin`, as the log and the admin API spell it.
    var name: String {
        switch self {
        case .success: "success"
        case .failedNoMatchingPin: "failed-no-matching-pin"
        case .failedInvalidCertificateChain: "failed-invalid-certificate-chain"
        case .errorInvalidParameters: "error-invalid-parameters"
        case .failedUserDefinedTrustAnchor: "failed-user-defined-trust-anchor"
        case .errorCouldNotGenerateSpkiHash: "error-could-not-generate-spki-hash"
        }
    }
}
