/// What `faultline scenario from-har` keeps of a HAR and how it lays the phases out
/// (docs/scenarios.md, "From a HAR file").
public struct HARScenarioOptions: Sendable {
    /// The scenario's name (letters, digits, `.`, `_`, `-`).
    public var name: String
    /// Only failing entries (5xx, 429, 408, aborted); slow successes are left out.
    public var onlyFailures = false
    /// Every phase's duration divided by this factor (1...1000); delays stay as captured.
    public var compress: Double?
    /// The longest quiet phase, in ms (the time between incidents); nil keeps them as captured.
    public var maxGapMs: Int?
    /// Host globs (`*` = any run of characters, case-insensitive); empty keeps every host.
    public var hosts: [String] = []
    /// An entry at least this slow (ms) is reproduced with a delay.
    public var slowMs = 1000
    /// The longest response body copied into a rule (bytes; longer ones are cut).
    public var maxBodyBytes = 16 * 1024

    /// Options with the defaults.
    public init(name: String) {
        self.name = name
    }
}
