/// A scenario: a named timeline of phases, each a set of rules in effect for a time, for a
/// number of requests its rules take, or until the scenario stops; with `loop` the first
/// phase follows the last. Run it in a session with `FaultlineSession.scenario(_:)`:
///
///     let outage = Scenario("payments-outage", phases: [
///         .lasting(.seconds(30), named: "down", rules: [Rule.pathPrefix("/pay").fault(.status(503))]),
///         .requests(20, rules: [Rule.pathPrefix("/pay").fault(.delay(.seconds(2)))]),
///         .untilStopped(),
///     ])
public struct Scenario: Sendable, Encodable, Equatable {
    /// Letters, digits, `.`, `_` and `-`, unique in the session.
    public let name: String
    /// Whether the first phase follows the last (the last must then end).
    public let loop: Bool
    /// The phases, in order.
    public let phases: [Phase]

    /// A scenario of `phases`, in order.
    public init(_ name: String, loop: Bool = false, phases: [Phase]) {
        self.name = name
        self.loop = loop
        self.phases = phases
    }

    /// One phase: its rules (the newest rule is not first here: the order given is the
    /// match order) and how it ends. Rules without a name get `rule-N`.
    public struct Phase: Sendable, Equatable {
        /// How the phase ends.
        public enum End: Sendable, Equatable {
            /// After this long (rounded down to whole milliseconds, at least 1).
            case after(Duration)
            /// After this many requests its rules took.
            case requests(Int)
            /// When the scenario stops.
            case never
        }

        /// The phase's label in the status, the log and the journal; nil for none.
        public let name: String?
        /// When the phase ends.
        public let end: End
        /// The rules in match order.
        public let rules: [Rule]

        /// A phase that ends as `end` says.
        public init(name: String? = nil, end: End, rules: [Rule]) {
            self.name = name
            self.end = end
            self.rules = rules
        }

        /// In effect for `duration`.
        public static func lasting(_ duration: Duration, named name: String? = nil, rules: [Rule]) -> Phase {
            Phase(name: name, end: .after(duration), rules: rules)
        }

        /// In effect until its rules took `count` requests.
        public static func requests(_ count: Int, named name: String? = nil, rules: [Rule]) -> Phase {
            Phase(name: name, end: .requests(count), rules: rules)
        }

        /// In effect until the scenario stops (only the last phase); no rules: the recovery.
        public static func untilStopped(named name: String? = nil, rules: [Rule] = []) -> Phase {
            Phase(name: name, end: .never, rules: rules)
        }

        var json: JSONValue {
            var fields: [String: JSONValue] = [:]
            if let name { fields["name"] = .string(name) }
            switch end {
            case .after(let duration): fields["for_ms"] = .int(max(1, duration.wholeMilliseconds))
            case .requests(let count): fields["requests"] = .int(count)
            case .never: break
            }
            fields["rules"] = .array(rules.enumerated().map { index, rule in rule.withName(orElse: "rule-\(index + 1)").json })
            return .object(fields)
        }
    }

    /// The scenario document (`POST /sessions/{id}/scenarios`, a scenario file).
    var json: JSONValue {
        .object(["name": .string(name), "loop": .bool(loop), "phases": .array(phases.map(\.json))])
    }

    /// The JSON of a scenario file, e.g. to write one for `faultline scenario start`.
    public var jsonText: String { json.text }

    /// Encodes the scenario document.
    public func encode(to encoder: any Encoder) throws {
        try json.encode(to: encoder)
    }
}
