import Foundation

extension JSONValue {
    /// Parses JSON text into a tree, or returns an error message that locates the
    /// problem by line and column when Foundation reports a character offset.
    static func parse(_ data: Data) -> Result<JSONValue, ConfigError> {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            return .failure(ConfigError(path: "", message: describe(parseError: error, in: data)))
        }
        // Foundation's parser takes a trailing comma that RFC 8259 (and every other strict
        // parser, the schema tooling included) refuses; a file is strict JSON or refused.
        if let offset = trailingCommaOffset(in: data) {
            return .failure(ConfigError(path: "", message: "invalid JSON at \(location(of: offset, in: data)): a trailing comma "
                + "(JSON allows none after the last member or element; comments are not JSON either)"))
        }
        return .success(JSONValue(foundation: object))
    }

    /// The byte offset of the first comma followed (after whitespace) by `}` or `]`,
    /// outside strings; nil when there is none.
    static func trailingCommaOffset(in data: Data) -> Int? {
        var inString = false
        var escaped = false
        var pendingComma: Int?
        for (offset, byte) in data.enumerated() {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                continue
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if let comma = pendingComma { return comma }
            case UInt8(ascii: ","):
                pendingComma = offset
                continue
            case UInt8(ascii: "\""):
                inString = true
            default:
                break
            }
            pendingComma = nil
        }
        return nil
    }

    /// Maps JSONSerialization output to a JSONValue; anything unrecognised becomes null.
    init(foundation value: Any) {
        switch value {
        case is NSNull:
            self = .null
        case let text as String:
            self = .string(text)
        case let number as NSNumber:
            self = JSONValue(number: number)
        case let items as [Any]:
            self = .array(items.map(JSONValue.init(foundation:)))
        case let fields as [String: Any]:
            self = .object(fields.mapValues(JSONValue.init(foundation:)))
        default:
            self = .null
        }
    }

    private init(number: NSNumber) {
        // On Linux `is Bool` also matches NSNumber(1); only the boolean subclass is a JSON bool.
        if type(of: number) == type(of: NSNumber(value: true)) {
            self = .bool(number.boolValue)
            return
        }
        let type = String(cString: number.objCType)
        if number is NSDecimalNumber {
            // Too large for Int64/UInt64/Double exactness; only its text is trustworthy.
            self = .number(JSONNumber(int64: nil, uint64: nil, text: number.description))
        } else if type == "d" || type == "f" {
            let double = number.doubleValue
            self = .number(JSONNumber(
                int64: Int64(exactly: double), uint64: UInt64(exactly: double), text: JSONValue.format(double)))
        } else if type == "Q" {
            let value = number.uint64Value
            self = .number(JSONNumber(int64: Int64(exactly: value), uint64: value, text: String(value)))
        } else {
            let value = number.int64Value
            self = .number(JSONNumber(int64: value, uint64: UInt64(exactly: value), text: String(value)))
        }
    }

    private static func format(_ double: Double) -> String {
        if let integral = Int64(exactly: double) { return "\(integral).0" }
        return "\(double)"
    }

    /// "invalid JSON at line L, column C: reason" from Foundation's "around character N"
    /// (a 0-based byte offset); columns count bytes, which is exact for ASCII files.
    private static func describe(parseError error: Error, in data: Data) -> String {
        let nsError = error as NSError
        let detail = (nsError.userInfo[NSDebugDescriptionErrorKey] as? String) ?? nsError.localizedDescription
        var reason = detail
        var offset: Int?
        if let range = detail.range(of: " around character ") {
            reason = String(detail[..<range.lowerBound])
            let digits = detail[range.upperBound...].prefix { $0.isASCII && $0.isNumber }
            offset = Int(digits)
        } else if detail.lowercased().contains("end of file") || data.isEmpty {
            offset = data.count
        }
        if reason.hasSuffix(".") { reason.removeLast() }
        guard let offset else { return "invalid JSON: \(reason)" }
        return "invalid JSON at \(location(of: offset, in: data)): \(reason)"
    }

    /// "line L, column C" of a 0-based byte offset; columns count bytes.
    private static func location(of offset: Int, in data: Data) -> String {
        var line = 1
        var column = 1
        for byte in data.prefix(offset) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return "line \(line), column \(column)"
    }
}
