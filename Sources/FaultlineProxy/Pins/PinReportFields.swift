import Foundation

/// The members of a report's JSON object with typed, strict lookups: each error names the
/// field and says what was expected and what came. JSON booleans and numbers are told apart
/// by their Foundation type (on Linux `is Bool` also matches the number 1).
struct PinReportFields {
    /// Longest text accepted in a string member (a PEM certificate has its own limit).
    static let maxText = 1024
    /// Longest PEM certificate accepted.
    static let maxPEM = 16 * 1024

    let object: [String: Any]

    /// Whether `key` is present (null counts as present).
    func has(_ key: String) -> Bool {
        object[key] != nil
    }

    /// A string of at most `maxText` bytes without control characters; `empty` allows "".
    func string(_ key: String, empty: Bool = false) throws(PinReportError) -> String {
        try Self.text(try value(key), field: key, empty: empty, pem: false)
    }

    /// A string, or nil when the member is absent or null.
    func optionalString(_ key: String) throws(PinReportError) -> String? {
        guard let raw = object[key], !(raw is NSNull) else { return nil }
        return try Self.text(raw, field: key, empty: false, pem: false)
    }

    /// `true` or `false`, nothing else.
    func bool(_ key: String) throws(PinReportError) -> Bool {
        let raw = try value(key)
        guard let number = raw as? NSNumber, Self.isBoolean(number) else {
            throw PinReportError(field: key, "expected true or false, got \(Self.describe(raw))")
        }
        return number.boolValue
    }

    /// An integer within `range`.
    func integer(_ key: String, in range: ClosedRange<Int>) throws(PinReportError) -> Int {
        let raw = try value(key)
        guard let number = raw as? NSNumber, !Self.isBoolean(number), !(number is NSDecimalNumber), !["d", "f"].contains(String(cString: number.objCType)),
              let value = Int(exactly: number.int64Value), range.contains(value) else {
            throw PinReportError(field: key, "expected an integer \(range.lowerBound)...\(range.upperBound), got \(Self.describe(raw))")
        }
        return value
    }

    /// An array of `minimum`...`maximum` strings; `pem` admits PEM certificates (longer, with
    /// line breaks).
    func strings(_ key: String, minimum: Int, maximum: Int, pem: Bool = false) throws(PinReportError) -> [String] {
        let raw = try value(key)
        guard let items = raw as? [Any] else {
            throw PinReportError(field: key, "expected an array of strings, got \(Self.describe(raw))")
        }
        guard items.count >= minimum, items.count <= maximum else {
            throw PinReportError(field: key, "expected \(minimum)...\(maximum) items, got \(items.count)")
        }
        var texts: [String] = []
        for (index, item) in items.enumerated() {
            texts.append(try Self.text(item, field: "\(key)[\(index)]", empty: false, pem: pem))
        }
        return texts
    }

    private func value(_ key: String) throws(PinReportError) -> Any {
        guard let raw = object[key] else { throw PinReportError(field: key, "missing") }
        return raw
    }

    private static func text(_ raw: Any, field: String, empty: Bool, pem: Bool) throws(PinReportError) -> String {
        let limit = pem ? maxPEM : maxText
        guard let text = raw as? String else { throw PinReportError(field: field, "expected a string, got \(describe(raw))") }
        if text.isEmpty && !empty { throw PinReportError(field: field, "empty") }
        if text.utf8.count > limit { throw PinReportError(field: field, "longer than \(limit) bytes") }
        // PEM text has line breaks; nothing else may carry control characters into a log.
        let allowed: Set<Unicode.Scalar> = pem ? ["\n", "\r"] : []
        if text.unicodeScalars.contains(where: { ($0.value < 0x20 || $0.value == 0x7F) && !allowed.contains($0) }) {
            throw PinReportError(field: field, "contains control characters")
        }
        return text
    }

    /// How a value reads after "got": its JSON type, never its content (which may be a secret).
    static func describe(_ raw: Any) -> String {
        switch raw {
        case is NSNull: "null"
        case is String: "a string"
        case let number as NSNumber: isBoolean(number) ? "a boolean" : "a number"
        case is [Any]: "an array"
        case is [String: Any]: "an object"
        default: "an unknown value"
        }
    }

    static func isBoolean(_ number: NSNumber) -> Bool {
        type(of: number) == type(of: NSNumber(value: true))
    }
}
