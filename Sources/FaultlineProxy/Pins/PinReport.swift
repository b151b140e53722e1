import FaultlineTLS

/// One pin failure report an app sent, validated, its certificates reduced to their SPKI
/// pins (`PinReportParser`). Texts are as received: whoever shows or logs them redacts
/// them first (`PinReportSummary`, `PinReport+Record`).
struct PinReport: Sendable {
    /// TrustKit or RFC 7469, with what only that format carries.
    let source: PinReportSource
    /// `date-time`: when the app saw the failure, RFC 3339 as sent.
    let dateTime: String
    /// `hostname`: the host the app connected to.
    let hostname: String
    /// `port`: 0 when TrustKit did not know it.
    let port: Int
    /// `noted-hostname`: the pinned domain whose policy applied.
    let notedHostname: String
    /// `include-subdomains`.
    let includeSubdomains: Bool
    /// `known-pins`: the pins the app holds for `notedHostname`.
    let knownPins: [SPKIPinValue]
    /// `validated-certificate-chain`, leaf first.
    let validatedChain: [PinReportCertificate]
    /// Members neither format defines, as one compact JSON object (sorted keys), nil when
    /// there are none: shown and logged through the JSON body redaction, so a sensitive
    /// member (`"api_key": […]`, `"client_secret": {…}`, `"pin": 1234`) goes whole.
    let extra: String?

    /// Which known pins the validated chain holds, `sha256/… matched the intermediate CN=…`:
    /// empty for an ordinary failure; otherwise the app failed for another reason
    /// (`validation-result`) or the chain it validated was not the one it reported.
    var matches: [String] {
        let known = Set(knownPins.map { "sha256/" + $0.base64 })
        return validatedChain.filter { known.contains($0.pin) }.map { "\($0.pin) matched the \($0.position) \($0.subject)" }
    }
}
