import FaultlineConfig

/// One fault of a rule: `name`, `enabled`, `kind`, the parameters under the kind's keyword
/// (as in the config file), `when` if it has a condition, and its counters.
struct FaultJSON: Encodable {
    let name: String
    let enabled: Bool
    /// The config key of the fault's kind (`FaultKind.keyword`): the `kind` and the parameters' key.
    let keyword: String
    let parameters: FaultKindJSON
    let when: FaultConditionJSON?
    let stats: Counters

    /// How often the fault matched and fired, and how many of its effects are running.
    struct Counters: Encodable {
        let matched: Int
        let fired: Int
        let active: Int
    }

    /// `enabled`, when given, is the fault's own switch (see `RuleOverlay.ownSwitches`).
    init(_ fault: FaultSpec, enabled: Bool? = nil, stats: Counters) {
        name = fault.name
        self.enabled = enabled ?? fault.enabled
        keyword = fault.kind.keyword
        parameters = FaultKindJSON(fault.kind)
        when = FaultConditionJSON(fault.when)
        self.stats = stats
    }

    /// The parameters' key is the kind's keyword, so the keys are not a fixed set.
    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }

        init(_ name: String) {
            stringValue = name
        }

        init?(stringValue: String) {
            self.init(stringValue)
        }

        init?(intValue: Int) {
            nil
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(name, forKey: Key("name"))
        try container.encode(enabled, forKey: Key("enabled"))
        try container.encode(keyword, forKey: Key("kind"))
        try container.encode(parameters, forKey: Key(keyword))
        try container.encodeIfPresent(when, forKey: Key("when"))
        try container.encode(stats, forKey: Key("stats"))
    }
}
