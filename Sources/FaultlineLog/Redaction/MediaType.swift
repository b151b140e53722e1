import FaultlineHTTP

/// Content-Type helpers for deciding which bodies are logged.
public enum MediaType {
    /// What a Content-Type value says about a body's syntax, as redaction reads it.
    enum BodySyntax {
        /// `application/json` or a `+json` type.
        case json
        /// `application/x-www-form-urlencoded`.
        case form
        /// Any other type.
        case other
        /// No Content-Type, or an empty one.
        case absent
    }

    /// The syntax `contentType`'s `type/subtype` names, compared ignoring case on its bytes:
    /// this runs for every captured body, and a lowercase String of the type with String
    /// comparisons and `hasSuffix` cost about 700 instructions.
    static func bodySyntax(_ contentType: String?) -> BodySyntax {
        guard var text = contentType else { return .absent }
        return text.withUTF8 { bytes in
            let bounds = essenceBounds(bytes)
            guard !bounds.isEmpty else { return .absent }
            let media = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[bounds])
            if ASCII.equalsIgnoringCase(media, "application/json") || hasSuffix(media, "+json") { return .json }
            return ASCII.equalsIgnoringCase(media, "application/x-www-form-urlencoded") ? .form : .other
        }
    }

    /// Where the `type/subtype` of a Content-Type value lies: before any `;`, without
    /// surrounding spaces and tabs.
    private static func essenceBounds(_ bytes: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        var end = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.endIndex
        var start = bytes.startIndex
        while start < end, bytes[start] == 32 || bytes[start] == 9 { start += 1 }
        while end > start, bytes[end - 1] == 32 || bytes[end - 1] == 9 { end -= 1 }
        return start..<end
    }

    /// Whether `contentType` matches one of `patterns` (`text/*`, `application/json`…);
    /// `application/json` also admits `+json` types and `application/xml` `+xml` types.
    public static func matches(_ contentType: String?, _ patterns: [String]) -> Bool {
        guard var text = contentType else { return false }
        // Case-insensitive byte comparisons: media types are ASCII tokens, and this runs for
        // every exchange whose bodies may be logged (String's Unicode-aware prefix and suffix
        // tests cost several thousand instructions per exchange here).
        return text.withUTF8 { bytes in
            let bounds = essenceBounds(bytes)
            guard !bounds.isEmpty else { return false }
            let media = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[bounds])
            return patterns.contains { pattern in
                var pattern = pattern
                return pattern.withUTF8 { essenceMatches(media, UnsafeRawBufferPointer($0)) }
            }
        }
    }

    /// Whether the essence `media` matches one `pattern`, both compared ignoring case.
    private static func essenceMatches(_ media: UnsafeRawBufferPointer, _ pattern: UnsafeRawBufferPointer) -> Bool {
        if ASCII.equalsIgnoringCase(media, pattern) || ASCII.equalsIgnoringCase(pattern, "*/*") { return true }
        let count = pattern.count
        if count >= 2, pattern[count - 2] == UInt8(ascii: "/"), pattern[count - 1] == UInt8(ascii: "*"), media.count >= count - 1,
           ASCII.equalsIgnoringCase(UnsafeRawBufferPointer(rebasing: media[..<(count - 1)]),
                                    UnsafeRawBufferPointer(rebasing: pattern[..<(count - 1)])) {
            return true
        }
        if ASCII.equalsIgnoringCase(pattern, "application/json"), hasSuffix(media, "+json") { return true }
        return ASCII.equalsIgnoringCase(pattern, "application/xml") && hasSuffix(media, "+xml")
    }

    private static func hasSuffix(_ bytes: UnsafeRawBufferPointer, _ suffix: StaticString) -> Bool {
        let count = suffix.utf8CodeUnitCount
        return bytes.count >= count && ASCII.equalsIgnoringCase(UnsafeRawBufferPointer(rebasing: bytes[(bytes.count - count)...]), suffix)
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs.
    func trimmingSpaces() -> Substring {
        let start = firstIndex { $0 != " " && $0 != "\t" } ?? endIndex
        let end = lastIndex { $0 != " " && $0 != "\t" }.map(index(after:)) ?? start
        return self[start..<Swift.max(start, end)]
    }
}
