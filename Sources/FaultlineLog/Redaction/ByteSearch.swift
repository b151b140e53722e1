/// Small byte-level helpers for the redaction scanners.
enum ByteSearch {
    /// Whether `haystack` contains `needle` (both short: header names and substrings).
    static func contains<Haystack: RandomAccessCollection<UInt8>>(_ haystack: Haystack, _ needle: [UInt8]) -> Bool
    where Haystack.Index == Int {
        guard !needle.isEmpty, needle.count <= haystack.count else { return needle.isEmpty }
        var start = haystack.startIndex
        while start + needle.count <= haystack.endIndex {
            var index = 0
            while index < needle.count, haystack[start + index] == needle[index] { index += 1 }
            if index == needle.count { return true }
            start += 1
        }
        return false
    }

    /// Whether `bytes[at...]` starts with `prefix`, ASCII case-insensitively.
    static func hasPrefix(_ bytes: ArraySlice<UInt8>, at: Int, caseInsensitive prefix: [UInt8]) -> Bool {
        guard at >= bytes.startIndex, at + prefix.count <= bytes.endIndex else { return false }
        for index in 0..<prefix.count where lower(bytes[at + index]) != lower(prefix[index]) {
            return false
        }
        return true
    }

    /// ASCII lowercase of one byte.
    static func lower(_ byte: UInt8) -> UInt8 {
        byte >= 65 && byte <= 90 ? byte + 32 : byte
    }

    /// Whether `byte` is ASCII whitespace.
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 32 || byte == 9 || byte == 10 || byte == 13
    }

    /// Whether `byte` is an ASCII hex digit.
    static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 70) || (byte >= 97 && byte <= 102)
    }

    /// Whether `byte` can be part of a parameter or field name in free text.
    static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
    }

    /// The placeholder's bytes.
    static let placeholder = Array(RedactionDefaults.placeholder.utf8)
}
