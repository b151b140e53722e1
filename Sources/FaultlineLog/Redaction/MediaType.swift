/// Content-Type helpers for deciding which bodies are logged.
public enum MediaType {
    /// The lowercase `type/subtype` of a Content-Type value, without parameters; empty when absent.
    public static func essence(_ contentType: String?) -> String {
        guard var text = contentType else { return "" }
        // Bytes, not Characters: this runs for every captured response.
        return text.withUTF8 { bytes in RedactionName.lower(bytes[essenceBounds(bytes)]) }
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

    /// Whether `contentType` matches one of `patterns` (lowercase: `text/*`, `application/json`…);
    /// `application/json` also admits `+json` types and `application/xml` `+xml` types.
    public static func matches(_ contentType: String?, _ patterns: [String]) -> Bool {
        guard var text = contentType else { return false }
        // Byte comparisons on a lowercase copy on the stack: media types are ASCII tokens, and
        // this runs for every exchange whose bodies may be logged (String's Unicode-aware
        // prefix and suffix tests cost several thousand instructions per exchange here).
        return text.withUTF8 { bytes in
            let bounds = essenceBounds(bytes)
            guard !bounds.isEmpty else { return false }
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bounds.count) { buffer in
                for (offset, byte) in bytes[bounds].enumerated() {
                    buffer[offset] = byte >= 65 && byte <= 90 ? byte | 0x20 : byte
                }
                let media = UnsafeBufferPointer(buffer)
                return patterns.contains { pattern in
                    var pattern = pattern
                    return pattern.withUTF8 { essenceMatches(media, $0) }
                }
            }
        }
    }

    /// Whether the lowercase essence `media` matches one lowercase `pattern`.
    private static func essenceMatches(_ media: UnsafeBufferPointer<UInt8>, _ pattern: UnsafeBufferPointer<UInt8>) -> Bool {
        if equal(pattern, media) || equal(pattern, "*/*") { return true }
        let count = pattern.count
        if count >= 2, pattern[count - 2] == UInt8(ascii: "/"), pattern[count - 1] == UInt8(ascii: "*"), media.count >= count - 1,
           equal(UnsafeBufferPointer(rebasing: media[..<(count - 1)]), UnsafeBufferPointer(rebasing: pattern[..<(count - 1)])) {
            return true
        }
        if equal(pattern, "application/json"), hasSuffix(media, "+json") { return true }
        return equal(pattern, "application/xml") && hasSuffix(media, "+xml")
    }

    private static func equal(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: UnsafeBufferPointer<UInt8>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for index in 0..<lhs.count where lhs[index] != rhs[index] { return false }
        return true
    }

    private static func equal(_ lhs: UnsafeBufferPointer<UInt8>, _ rhs: StaticString) -> Bool {
        equal(lhs, UnsafeBufferPointer(start: rhs.utf8Start, count: rhs.utf8CodeUnitCount))
    }

    private static func hasSuffix(_ bytes: UnsafeBufferPointer<UInt8>, _ suffix: StaticString) -> Bool {
        let count = suffix.utf8CodeUnitCount
        return bytes.count >= count && equal(UnsafeBufferPointer(rebasing: bytes[(bytes.count - count)...]), suffix)
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
