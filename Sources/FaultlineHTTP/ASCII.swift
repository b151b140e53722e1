/// Byte-level helpers for header names and tokens; the hot path compares bytes, not Strings.
public enum ASCII {
    /// Lowercases one ASCII byte.
    @inlinable
    public static func lower(_ byte: UInt8) -> UInt8 {
        byte &- 0x41 < 26 ? byte | 0x20 : byte
    }

    /// Whether every byte of `bytes` is below 0x80, read eight at a time.
    @inlinable
    public static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var high: UInt64 = 0
        var index = 0
        while index + 8 <= bytes.count {
            high |= bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            index += 8
        }
        while index < bytes.count {
            high |= UInt64(bytes[index])
            index += 1
        }
        return high & 0x8080_8080_8080_8080 == 0
    }

    /// Case-insensitive equality of `bytes` with an already lowercase `lowercase`.
    @inlinable
    public static func equalsIgnoringCase(_ bytes: UnsafeRawBufferPointer, _ lowercase: StaticString) -> Bool {
        equalsIgnoringCase(bytes, lowercase: UnsafeRawBufferPointer(start: lowercase.utf8Start, count: lowercase.utf8CodeUnitCount))
    }

    /// Case-insensitive equality of `bytes` with bytes already in lowercase (only `bytes` is lowered).
    @inlinable
    public static func equalsIgnoringCase(_ bytes: UnsafeRawBufferPointer, lowercase: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count == lowercase.count else { return false }
        for index in 0..<bytes.count where lower(bytes[index]) != lowercase[index] {
            return false
        }
        return true
    }

    /// Case-insensitive equality of `bytes` with a String (configured names; not the hot path).
    /// Labelled so that a string literal always picks the `StaticString` overload above: an
    /// unlabelled String overload wins for literals, and costs a `withUTF8` call each time.
    public static func equalsIgnoringCase(_ bytes: UnsafeRawBufferPointer, configured text: String) -> Bool {
        var text = text
        return text.withUTF8 { equalsIgnoringCase(bytes, UnsafeRawBufferPointer($0)) }
    }

    /// Case-insensitive equality of two byte runs.
    @inlinable
    public static func equalsIgnoringCase(_ lhs: UnsafeRawBufferPointer, _ rhs: UnsafeRawBufferPointer) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for index in 0..<lhs.count where lower(lhs[index]) != lower(rhs[index]) {
            return false
        }
        return true
    }

    /// Whether `bytes` contains `token` (lowercase) as one element of a comma-separated list,
    /// ignoring case and optional whitespace, as in `Connection: keep-alive, Upgrade`.
    public static func listContains(_ bytes: UnsafeRawBufferPointer, token: StaticString) -> Bool {
        var found = false
        forEachListElement(bytes) { element in
            if equalsIgnoringCase(element, token) { found = true }
        }
        return found
    }

    /// Calls `body` with each trimmed, non-empty element of a comma-separated header value.
    public static func forEachListElement(_ bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void) {
        var start = 0
        let count = bytes.count
        while start <= count {
            var end = start
            while end < count && bytes[end] != UInt8(ascii: ",") { end += 1 }
            var lo = start, hi = end
            while lo < hi && isWhitespace(bytes[lo]) { lo += 1 }
            while hi > lo && isWhitespace(bytes[hi - 1]) { hi -= 1 }
            if hi > lo { body(UnsafeRawBufferPointer(rebasing: bytes[lo..<hi])) }
            start = end + 1
        }
    }

    /// A tchar (RFC 9110 §5.6.2): the bytes of a token (a method, a field name, a coding name).
    public static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    /// Space or horizontal tab.
    @inlinable
    public static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09
    }
}
