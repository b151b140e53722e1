import Foundation

/// One compiled `json` condition: a pointer and what the value there must be. A string value
/// compares as itself; `true`, `false` and `null` as those words; a number equals a condition
/// that reads as the same number (`"42"` and `"42.0"` both match 42) and globs against its
/// decimal text; an object or an array only meets `true` (present). A body that is missing,
/// over the limit or not JSON meets no condition, `false` (absent) included.
struct JSONField: Sendable {
    let pointer: JSONPointer?
    let condition: ValueCondition

    init(_ condition: FieldCondition) {
        pointer = JSONPointer(condition.name)
        self.condition = condition.condition
    }

    func matches(_ body: MatchBody?) -> Bool {
        guard let pointer, let document = body?.parsed() else { return false }
        let value = pointer.evaluate(document)
        switch condition {
        case .present: return value != nil
        case .absent: return value == nil
        case .equals(let text):
            guard let value else { return false }
            if let number = value as? NSNumber, !JSONField.isBool(number) {
                guard let wanted = Double(text), wanted.isFinite else { return false }
                return number.doubleValue == wanted
            }
            return JSONField.scalarText(value) == text
        case .glob(let pattern):
            guard let value, let text = JSONField.scalarText(value) else { return false }
            return Array(text.utf8).withUnsafeBytes { input in
                Array(pattern.utf8).withUnsafeBytes { ByteMatch.glob(input, $0, questionMarkIsWildcard: false) }
            }
        }
    }

    /// A scalar's text as compared: a string's own, `true`/`false`/`null`, a number's decimal form.
    static func scalarText(_ value: Any) -> String? {
        if let text = value as? String { return text }
        if value is NSNull { return "null" }
        if let number = value as? NSNumber {
            if isBool(number) { return number.boolValue ? "true" : "false" }
            return "\(number)"
        }
        return nil
    }

    /// JSONSerialization reads `true` and `false` as NSNumbers of type `c` (char).
    private static func isBool(_ number: NSNumber) -> Bool {
        String(cString: number.objCType) == "c"
    }
}
