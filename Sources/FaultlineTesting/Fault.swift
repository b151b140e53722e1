import Foundation

/// One fault of a rule, encoded exactly as an element of a route's `faults` in the config
/// file (docs/config.md, "Faults"): one kind key, plus `name`, `when` and `enabled`.
///
/// Build one with a kind (`.status(503)`, `.hang()`, `.throttle(kbps: 64)`, …) and narrow
/// it with conditions, each returning a modified copy:
/// `.status(503, retryAfter: 1).sequence([503, 503, .pass])`.
public struct Fault: Sendable, Encodable, Equatable {
    /// The kind key (`"status"`, `"delay"`, …).
    public let kind: String
    /// The value under the kind key: an object of the kind's keys, or a profile's name.
    let parameters: JSONValue
    /// The fault's name, when one was given (the proxy names it after its kind otherwise).
    public private(set) var name: String?
    /// The `when` conditions given so far.
    var conditions: [String: JSONValue] = [:]
    /// False when built with `disabled()`.
    var enabled = true

    init(_ kind: String, _ parameters: [String: JSONValue]) {
        self.kind = kind
        self.parameters = .object(parameters)
    }

    init(_ kind: String, value: JSONValue) {
        self.kind = kind
        self.parameters = value
    }

    /// The fault as the config file's JSON object.
    var json: JSONValue {
        var fields: [String: JSONValue] = [kind: parameters]
        if let name { fields["name"] = .string(name) }
        if !conditions.isEmpty { fields["when"] = .object(conditions) }
        if !enabled { fields["enabled"] = .bool(false) }
        return .object(fields)
    }

    /// The JSON this fault encodes to (compact, keys sorted), e.g. for a failure message.
    public var jsonText: String { json.text }

    /// Encodes the config file's fault object.
    public func encode(to encoder: any Encoder) throws {
        try json.encode(to: encoder)
    }

    /// This fault under `name` (unique in its rule), as stats, logs and the journal's
    /// `faults` show it.
    public func named(_ name: String) -> Fault {
        var copy = self
        copy.name = name
        return copy
    }

    /// This fault switched off (`"enabled": false`): never evaluated, counters still.
    public func disabled() -> Fault {
        var copy = self
        copy.enabled = false
        return copy
    }

    /// A copy with one more `when` condition.
    func when(_ key: String, _ value: JSONValue) -> Fault {
        var copy = self
        copy.conditions[key] = value
        return copy
    }
}
