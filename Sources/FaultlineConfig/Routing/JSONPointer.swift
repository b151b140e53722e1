import Foundation

/// An RFC 6901 JSON Pointer (`/user/tier`, `/items/0/sku`, `""` for the whole document),
/// evaluated against what `JSONSerialization` reads. `~1` is `/` and `~0` is `~` in a token;
/// an array index is `0` or digits without a leading zero, range-checked (`-`, the position
/// after the last element, never points at a value).
public struct JSONPointer: Sendable, Hashable, CustomStringConvertible {
    /// The reference tokens, unescaped.
    public let tokens: [String]
    /// The pointer as written.
    public let description: String

    /// Parses `text`; nil when it is neither empty nor starts with `/`, or holds a `~`
    /// not followed by `0` or `1`.
    public init?(_ text: String) {
        guard text.isEmpty || text.hasPrefix("/") else { return nil }
        var tokens: [String] = []
        for raw in text.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            var token = ""
            var escaping = false
            for character in raw {
                if escaping {
                    switch character {
                    case "0": token.append("~")
                    case "1": token.append("/")
                    default: return nil
                    }
                    escaping = false
                } else if character == "~" {
                    escaping = true
                } else {
                    token.append(character)
                }
            }
            if escaping { return nil }
            tokens.append(token)
        }
        self.tokens = tokens
        self.description = text
    }

    /// The value the pointer names in `document`, or nil when there is none.
    public func evaluate(_ document: Any) -> Any? {
        var current = document
        for token in tokens {
            if let object = current as? [String: Any] {
                guard let next = object[token] else { return nil }
                current = next
            } else if let array = current as? [Any] {
                guard let index = JSONPointer.arrayIndex(token), index < array.count else { return nil }
                current = array[index]
            } else {
                return nil
            }
        }
        return current
    }

    /// `0`, or up to 18 digits without a leading zero (no sign, no `-`): within Int range.
    static func arrayIndex(_ token: String) -> Int? {
        let digits = token.utf8
        guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        if digits.count > 1 && digits.first == UInt8(ascii: "0") { return nil }
        return Int(token)
    }
}
