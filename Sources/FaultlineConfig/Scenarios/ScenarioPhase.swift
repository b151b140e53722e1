/// One phase of a scenario: its rules, in effect until it ends.
public struct ScenarioPhase: Sendable, Equatable {
    /// How a phase ends.
    public enum End: Sendable, Equatable {
        /// After this many milliseconds (`for_ms`).
        case elapsed(milliseconds: Int)
        /// After this many requests matched one of its rules (`requests`).
        case requests(Int)
        /// Only when the scenario stops (neither key).
        case never
    }

    /// The name given, if any (`name`).
    public let name: String?
    /// When it ends.
    public let end: End
    /// The rules in match order, as the admin API takes them; `upstream` is "" when a rule
    /// leaves it out (its requests go where the global routes send them).
    public let rules: [RouteConfig]

    /// Creates a phase (validated by the loader; this initializer checks nothing).
    public init(name: String? = nil, end: End = .never, rules: [RouteConfig]) {
        self.name = name
        self.end = end
        self.rules = rules
    }
}
