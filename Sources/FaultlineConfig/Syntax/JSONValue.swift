/// A JSON tree in Swift terms, converted once from JSONSerialization's `Any` so the
/// validator can switch over cases instead of guessing at NSNumber bridging.
enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// How the value reads in an error message after "got".
    var rendered: String {
        switch self {
        case .null: "null"
        case .bool(let value): value ? "true" : "false"
        case .number(let number): number.text
        case .string(let text): JSONValue.quoted(text)
        case .array(let items): items.isEmpty ? "[]" : "an array"
        case .object(let fields): fields.isEmpty ? "{}" : "an object"
        }
    }

    /// A string in double quotes, with control characters escaped and long text cut,
    /// so an error line stays one readable line.
    static func quoted(_ text: String, limit: Int = 80) -> String {
        var out = "\""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == limit {
                out += "…"
                break
            }
            count += 1
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
