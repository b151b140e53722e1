import Foundation

extension PinEnforcement {
    /// The body of the 502 a client gets when enforce mode refuses a chain: what was expected
    /// and what was seen, so the mismatch can be fixed.
    struct RefusalBody: Encodable {
        let error: String
        let message: String
        let upstream: String
        let host: String
        let port: Int
        let mode: String
        let expectedPins: [String]
        let observedChain: [ObservedCertificate]

        enum CodingKeys: String, CodingKey {
            case error
            case message
            case upstream
            case host
            case port
            case mode
            case expectedPins = "expected_pins"
            case observedChain = "observed_chain"
        }
    }

    /// One certificate of the verified chain, its pin spelled as in the config.
    struct ObservedCertificate: Encodable {
        let position: String
        let subject: String
        let pin: String
    }

    /// A pin failure report with the fields of RFC 7469 §3, plus which upstream and mode.
    struct FailureReport: Encodable {
        let dateTime: String
        let hostname: String
        let port: Int
        let includeSubdomains: Bool
        let notedHostname: String
        let servedCertificateChain: [String]
        let validatedCertificateChain: [String]
        let knownPins: [String]
        let effectiveExpirationDate: String?
        let upstream: String
        let mode: String
        let observed: [String]
        /// Pins from an app file: the evaluator's verdict with the rule it applied.
        var verdict: String?

        enum CodingKeys: String, CodingKey {
            case dateTime = "date-time"
            case hostname
            case port
            case includeSubdomains = "include-subdomains"
            case notedHostname = "noted-hostname"
            case servedCertificateChain = "served-certificate-chain"
            case validatedCertificateChain = "validated-certificate-chain"
            case knownPins = "known-pins"
            case effectiveExpirationDate = "effective-expiration-date"
            case upstream = "faultline-upstream"
            case mode = "faultline-mode"
            case observed = "faultline-observed"
            case verdict = "faultline-verdict"
        }
    }

    /// `value` as one line of JSON: sorted keys, slashes (PEM, base64) as they are.
    static func json(_ value: some Encodable, fallback: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return fallback }
        return String(decoding: data, as: UTF8.self)
    }
}
