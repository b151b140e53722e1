extension AdminBody {
    /// `GET /stats`: counters per rule and fault, and the seed that replays the decisions.
    struct Stats: Encodable {
        let configGeneration: Int
        /// A string: a 64-bit seed does not survive JSON readers that use doubles.
        let seed: String
        let rules: [RuleCounters]

        enum CodingKeys: String, CodingKey {
            case configGeneration = "config_generation"
            case seed
            case rules
        }
    }

    /// One rule's counters.
    struct RuleCounters: Encodable {
        let name: String
        let source: String
        let enabled: Bool
        let fired: Int
        let faults: [FaultCounters]
    }

    /// One fault's counters.
    struct FaultCounters: Encodable {
        let name: String
        let kind: String
        let enabled: Bool
        let matched: Int
        let fired: Int
        let active: Int
    }
}
