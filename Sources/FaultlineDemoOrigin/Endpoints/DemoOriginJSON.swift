/// The little JSON the demo origin writes: bodies are built by interpolating these pieces,
/// which avoids Foundation's encoder on paths that benchmarks exercise.
enum DemoOriginJSON {
    /// `text` as a quoted, escaped JSON string.
    static func quoted(_ text: String) -> String {
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
        return out
    }

    /// An object of string values, keys in the given order.
    static func object(_ pairs: [(key: String, value: String)]) -> String {
        "{" + pairs.map { "\(quoted($0.key)): \(quoted($0.value))" }.joined(separator: ", ") + "}"
    }

    /// A complete response body: the document and a trailing newline, as httpbin and curl users expect.
    static func body(_ document: String) -> [UInt8] {
        Array((document + "\n").utf8)
    }
}
