/// The `when` of a fault: every condition present must hold (AND). Counts are of the
/// requests that matched the fault's route while the fault was enabled, from 1.
public struct FaultCondition: Sendable, Equatable {
    /// Chance of firing, 0...1, drawn per request from the fault's seeded stream.
    public let probability: Double?
    /// Only the first N matched requests.
    public let firstN: Int?
    /// Only after the first N matched requests.
    public let afterN: Int?
    /// Only every N-th matched request (N, 2N, …).
    public let everyNth: Int?
    /// Per-request steps, taken by the requests that meet every other condition.
    public let sequence: [FaultSequenceStep]?
    /// Only within this many milliseconds of the fault being loaded (or counters reset).
    public let activeForMs: Int?
    /// At most this many injections of this fault in progress at once.
    public let maxActive: Int?

    /// Creates a condition; with no arguments the fault fires on every matched request.
    public init(
        probability: Double? = nil, firstN: Int? = nil, afterN: Int? = nil, everyNth: Int? = nil,
        sequence: [FaultSequenceStep]? = nil, activeForMs: Int? = nil, maxActive: Int? = nil
    ) {
        self.probability = probability
        self.firstN = firstN
        self.afterN = afterN
        self.everyNth = everyNth
        self.sequence = sequence
        self.activeForMs = activeForMs
        self.maxActive = maxActive
    }
}
