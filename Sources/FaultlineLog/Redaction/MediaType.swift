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
            let media = essence(of: UnsafeRawBufferPointer(bytes))
            guard !media.isEmpty else { return .absent }
            if ASCII.equalsIgnoringCase(media, "application/json") || hasSuffix(media, "+json") { return .json }
            return ASCII.equalsIgnoringCase(media, "application/x-www-form-urlencoded") ? .form : .other
        }
    }

    /// The `type/subtype` of a Content-Type value: the bytes before any `;`, without
    /// surrounding spaces and tabs.
    static func essence(of value: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var end = value.firstIndex(of: UInt8(ascii: ";")) ?? value.endIndex
        var start = value.startIndex
        while start < end, value[start] == 32 || value[start] == 9 { start += 1 }
        while end > start, value[end - 1] == 32 || value[end - 1] == 9 { end -= 1 }
        return UnsafeRawBufferPointer(rebasing: value[start..<end])
    }

    /// Whether `bytes` ends with `suffix`, ignoring case.
    static func hasSuffix(_ bytes: UnsafeRawBufferPointer, _ suffix: StaticString) -> Bool {
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
