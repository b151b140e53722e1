/// Where a scenario's timeline stands, as `GET …/scenarios/{name}` shows it.
public struct ScenarioStatus: Sendable, Decodable, Equatable {
    /// The phase in effect.
    public struct Current: Sendable, Decodable, Equatable {
        /// 0-based index in the scenario's phases.
        public let index: Int
        /// The phase's name; nil when it has none.
        public let name: String?
        /// Times the scenario looped back to its first phase.
        public let cycle: Int
        /// Milliseconds before a timed phase ends; nil for the others.
        public let msLeft: Int?
        /// Requests before a counted phase ends; nil for the others.
        public let requestsLeft: Int?

        private enum CodingKeys: String, CodingKey {
            case index, name, cycle
            case msLeft = "ms_left", requestsLeft = "requests_left"
        }
    }

    /// The scenario's name.
    public let name: String
    /// `"running"`, `"stopped"` or `"finished"`.
    public let state: String
    /// Nil unless running.
    public let current: Current?
    /// Phases begun since it was defined.
    public let transitions: Int
}

/// The scenario phase a journaled request met: the one whose rule took it, else the one in
/// effect in its session (or globally).
public struct ScenarioMark: Sendable, Decodable, Equatable {
    /// The scenario's name.
    public let name: String
    /// 0-based index of the phase.
    public let phase: Int
    /// The phase's name; nil when it has none.
    public let phaseName: String?
    /// Times the scenario had looped back to its first phase.
    public let cycle: Int

    private enum CodingKeys: String, CodingKey {
        case name, phase, cycle
        case phaseName = "phase_name"
    }
}
