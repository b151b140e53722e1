/// What a request field (header, query parameter, cookie) must hold for a rule to match.
public enum ValueCondition: Sendable, Hashable, CustomStringConvertible {
    /// Some field of that name has exactly this value (bytes as sent).
    case equals(String)
    /// Some field of that name has a value matching this glob: `*` is any run of bytes.
    case glob(String)
    /// A field of that name is present (`true` in config).
    case present
    /// No field of that name is present (`false` in config).
    case absent

    /// A config string: a glob when it holds `*`, an exact value otherwise.
    public init(text: String) {
        self = text.contains("*") ? .glob(text) : .equals(text)
    }

    /// The condition as written in config.
    public var description: String {
        switch self {
        case .equals(let text), .glob(let text): JSONValue.quoted(text)
        case .present: "true"
        case .absent: "false"
        }
    }
}

/// One named condition of a `headers`, `query` or `cookies` match.
public struct FieldCondition: Sendable, Hashable {
    /// The field's name (headers: lowercased; query parameters and cookies: as written).
    public let name: String
    /// What the field must hold.
    public let condition: ValueCondition

    /// Creates a condition on the field `name`.
    public init(name: String, condition: ValueCondition) {
        self.name = name
        self.condition = condition
    }
}
