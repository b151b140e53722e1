extension AdminBody {
    /// `GET /stats`: counters per rule and fault, the seed that replays the decisions, and
    /// the HTTP/2 traffic counters (zeros while no client speaks HTTP/2).
    struct Stats: Encodable {
        let configGeneration: Int
        /// A string: a 64-bit seed does not survive JSON readers that use doubles.
        let seed: String
        let rules: [RuleCounters]
        let http2: HTTP2Counters.Counts

        enum CodingKeys: String, CodingKey {
            case configGeneration = "config_generation"
            case seed
            case rules
            case http2
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
