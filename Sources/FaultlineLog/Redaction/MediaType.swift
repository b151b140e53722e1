/// Content-Type helpers for deciding which bodies are logged.
public enum MediaType {
    /// The lowercase `type/subtype` of a Content-Type value, without parameters; empty when absent.
    public static func essence(_ contentType: String?) -> String {
        guard var text = contentType else { return "" }
        // Bytes, not Characters: this runs for every captured response.
        return text.withUTF8 { bytes in
            var end = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.endIndex
            var start = bytes.startIndex
            while start < end, bytes[start] == 32 || bytes[start] == 9 { start += 1 }
            while end > start, bytes[end - 1] == 32 || bytes[end - 1] == 9 { end -= 1 }
            return RedactionName.lower(bytes[start..<end])
        }
    }

    /// Whether `contentType` matches one of `patterns` (lowercase: `text/*`, `application/json`…);
    /// `application/json` also admits `+json` types and `application/xml` `+xml` types.
    public static func matches(_ contentType: String?, _ patterns: [String]) -> Bool {
        let media = essence(contentType)
        guard !media.isEmpty else { return false }
        for pattern in patterns {
            let lowered = pattern
            if lowered == media || lowered == "*/*" { return true }
            if lowered.hasSuffix("/*"), media.hasPrefix(lowered.dropLast()) { return true }
            if lowered == "application/json", media.hasSuffix("+json") { return true }
            if lowered == "application/xml", media.hasSuffix("+xml") { return true }
        }
        return false
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
