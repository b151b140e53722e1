import Foundation

/// A JSON tree, so that rules and faults can be built piece by piece and encoded as the
/// config file spells them.
enum JSONValue: Sendable, Codable, Equatable {
    case string(String)
    case int(Int)
    case unsigned(UInt64)
    case double(Double)
    case bool(Bool)
    case array([JSONValue])
    case object([String: JSONValue])

    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .string(let text): var container = encoder.singleValueContainer(); try container.encode(text)
        case .int(let number): var container = encoder.singleValueContainer(); try container.encode(number)
        case .unsigned(let number): var container = encoder.singleValueContainer(); try container.encode(number)
        case .double(let number): var container = encoder.singleValueContainer(); try container.encode(number)
        case .bool(let flag): var container = encoder.singleValueContainer(); try container.encode(flag)
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(element) }
        case .object(let fields):
            var container = encoder.container(keyedBy: Key.self)
            for (key, value) in fields { try container.encode(value, forKey: Key(stringValue: key)) }
        }
    }

    /// Reads any JSON value; `null` is refused (no rule, fault or scenario field takes it).
    init(from decoder: any Decoder) throws {
        if var elements = try? decoder.unkeyedContainer() {
            var values: [JSONValue] = []
            while !elements.isAtEnd { values.append(try elements.decode(JSONValue.self)) }
            self = .array(values)
        } else if let fields = try? decoder.container(keyedBy: Key.self) {
            var values: [String: JSONValue] = [:]
            for key in fields.allKeys { values[key.stringValue] = try fields.decode(JSONValue.self, forKey: key) }
            self = .object(values)
        } else {
            let value = try decoder.singleValueContainer()
            if let flag = try? value.decode(Bool.self) {
                self = .bool(flag)
            } else if let number = try? value.decode(Int.self) {
                self = .int(number)
            } else if let number = try? value.decode(Double.self) {
                self = .double(number)
            } else {
                self = .string(try value.decode(String.self))
            }
        }
    }

    /// Compact JSON with sorted keys, so equal values give equal text.
    var text: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }

    /// `[String: String]` as a JSON object of strings.
    static func strings(_ fields: [String: String]) -> JSONValue {
        .object(fields.mapValues { .string($0) })
    }
}
