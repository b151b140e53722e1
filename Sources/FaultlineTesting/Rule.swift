import Foundation

/// A rule: a route object of the config file (`name`, `match`, `upstream`, `faults`),
/// as `POST /rules` and `POST /sessions/{id}/rules` take it. Start from what it matches
/// (`.path("/users")`, `.any`), then chain: `.methods("GET").fault(.status(503))`.
/// A rule with no fault only routes.
public struct Rule: Sendable, Encodable, Equatable {
    /// The rule's name; nil until `named(_:)` (`add` then generates one).
    public private(set) var name: String?
    /// The upstream's name; nil in a session means "the upstream of the route the request
    /// would take anyway".
    public private(set) var upstreamName: String?
    /// The faults, in the order given.
    public private(set) var faults: [Fault] = []
    /// The `match` object's fields.
    var match: [String: JSONValue] = [:]
    /// `"start"` or `"end"` for the global `POST /rules`; nil for sessions.
    var position: String?

    private init(match: [String: JSONValue]) {
        self.match = match
    }

    /// Requests whose path (query excluded) is exactly `path`.
    public static func path(_ path: String) -> Rule {
        Rule(match: ["path": .string(path)])
    }

    /// Requests whose path starts with `prefix`, byte for byte (`/users` also matches
    /// `/users2`).
    public static func pathPrefix(_ prefix: String) -> Rule {
        Rule(match: ["path_prefix": .string(prefix)])
    }

    /// Requests whose path matches `glob`: `*` is any run of characters including `/`,
    /// `?` one byte.
    public static func pathGlob(_ glob: String) -> Rule {
        Rule(match: ["path_glob": .string(glob)])
    }

    /// Every request.
    public static var any: Rule {
        Rule(match: [:])
    }

    /// Only these methods (compared case-sensitively: `"GET"`).
    public func methods(_ methods: String...) -> Rule {
        var copy = self
        copy.match["methods"] = .array(methods.map { .string($0) })
        return copy
    }

    /// Only this host (without port; `*.example.com` for any subdomain).
    public func host(_ host: String) -> Rule {
        var copy = self
        copy.match["host"] = .string(host)
        return copy
    }

    /// Sends matching requests to the upstream of that name (a launched proxy has one,
    /// `"default"`).
    public func upstream(_ name: String) -> Rule {
        var copy = self
        copy.upstreamName = name
        return copy
    }

    /// Names the rule (unique in its session, or among the global rules).
    public func named(_ name: String) -> Rule {
        var copy = self
        copy.name = name
        return copy
    }

    /// Adds a fault; several calls add several faults, applied in the proxy's composition
    /// order (docs/config.md, "Composition order").
    public func fault(_ fault: Fault) -> Rule {
        var copy = self
        copy.faults.append(fault)
        return copy
    }

    /// The route object as JSON.
    var json: JSONValue {
        var fields: [String: JSONValue] = [:]
        if let name { fields["name"] = .string(name) }
        if !match.isEmpty { fields["match"] = .object(match) }
        if let upstreamName { fields["upstream"] = .string(upstreamName) }
        if !faults.isEmpty { fields["faults"] = .array(faults.map(\.json)) }
        if let position { fields["position"] = .string(position) }
        return .object(fields)
    }

    /// The JSON this rule encodes to (compact, keys sorted), e.g. for a failure message.
    public var jsonText: String { json.text }

    /// Encodes the config file's route object.
    public func encode(to encoder: any Encoder) throws {
        try json.encode(to: encoder)
    }

    /// A copy with `name` when it has none.
    func withName(orElse generated: String) -> Rule {
        name == nil ? named(generated) : self
    }
}
