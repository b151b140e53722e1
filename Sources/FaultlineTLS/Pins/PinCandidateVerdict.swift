/// How the candidate (next) pin set fared on a chain: evaluated in shadow, it never blocks.
public struct PinCandidateVerdict: Sendable, Hashable {
    /// Whether a candidate pin matched a certificate of the verified chain.
    public let passed: Bool
    /// Which candidate pins matched which certificates.
    public let matches: [PinMatch]

    /// Creates a candidate verdict.
    public init(passed: Bool, matches: [PinMatch]) {
        self.passed = passed
        self.matches = matches
    }
}
