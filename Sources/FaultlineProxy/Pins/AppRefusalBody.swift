/// The body of the 502 a client gets when an app's pin rules refuse a chain in enforce
/// mode: the fields of a listed-pins refusal plus the app rule and the evaluator's reason.
struct AppRefusalBody: Encodable {
    let error: String
    let message: String
    let reason: String
    let upstream: String
    let host: String
    let port: Int
    let mode: String
    let app: String
    let platform: String
    let domain: String
    let entry: String?
    let expectedPins: [String]
    let observedChain: [PinEnforcement.ObservedCertificate]

    enum CodingKeys: String, CodingKey {
        case error
        case message
        case reason
        case upstream
        case host
        case port
        case mode
        case app
        case platform
        case domain
        case entry
        case expectedPins = "expected_pins"
        case observedChain = "observed_chain"
    }
}
