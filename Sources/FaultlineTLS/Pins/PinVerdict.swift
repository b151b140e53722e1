/// The outcome of checking a verified chain against a pin set.
public struct PinVerdict: Sendable, Hashable {
    /// The configured mode.
    public let mode: PinMode
    /// The mode that applied: `.off` when the set has expired and expiry means `unpinned`.
    public let effectiveMode: PinMode
    /// Whether a live pin matched a certificate of the chain.
    public let matched: Bool
    /// Whether the connection passes: a live pin matched, or pins did not apply (mode `off`,
    /// or an expired set behaving as `unpinned`). In `report` mode a failure is logged, not blocked.
    public let passed: Bool
    /// Which live pins matched which certificates.
    public let matches: [PinMatch]
    /// Every certificate of the chain with its position, subject and pin.
    public let observed: [PinObservation]
    /// Whether the pin set's `expires` date has passed.
    public let expired: Bool
    /// The candidate set's verdict, when there is a candidate set.
    public let candidate: PinCandidateVerdict?

    /// Creates a verdict.
    public init(mode: PinMode, effectiveMode: PinMode, matched: Bool, passed: Bool, matches: [PinMatch],
                observed: [PinObservation], expired: Bool, candidate: PinCandidateVerdict?) {
        self.mode = mode
        self.effectiveMode = effectiveMode
        self.matched = matched
        self.passed = passed
        self.matches = matches
        self.observed = observed
        self.expired = expired
        self.candidate = candidate
    }

    /// Whether the connection must be refused: enforced and no live pin matched.
    public var blocks: Bool {
        effectiveMode == .enforce && !passed
    }
}
