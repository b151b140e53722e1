/// An outcome with its one-line reason in plain words and the entry that decided it.
public struct AppPinVerdict: Sendable, Hashable, CustomStringConvertible {
    /// PASS, FAIL, NOT PINNED or report-only failure.
    public let outcome: AppPinOutcome
    /// Why, e.g. `pins only leaf keys; the chain's leaf key is not among them`.
    public let reason: String
    /// The key path of the entry applied, nil when none matched.
    public let entry: String?

    /// Creates a verdict.
    public init(outcome: AppPinOutcome, reason: String, entry: String? = nil) {
        self.outcome = outcome
        self.reason = reason
        self.entry = entry
    }

    /// `FAIL: pins only leaf keys; …`.
    public var description: String {
        "\(outcome.label): \(reason)"
    }
}
