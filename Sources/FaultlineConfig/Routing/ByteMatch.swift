/// Allocation-free byte comparisons for the route matcher's hot path: patterns come from
/// the table's arena, inputs are raw buffers straight from the request parser.
enum ByteMatch {
    /// ASCII lowercase of one byte; other bytes pass through.
    @inline(__always)
    static func lower(_ byte: UInt8) -> UInt8 {
        byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
    }

    /// Whether `input` equals `pattern` exactly.
    static func equals(_ input: UnsafeRawBufferPointer, _ pattern: UnsafeRawBufferPointer) -> Bool {
        guard input.count == pattern.count else { return false }
        return hasPrefix(input, pattern)
    }

    /// Whether `input`, ASCII-lowercased, equals the already lowercased `pattern`.
    static func equalsIgnoringCase(_ input: UnsafeRawBufferPointer, _ lowercasedPattern: UnsafeRawBufferPointer) -> Bool {
        input.count == lowercasedPattern.count && hasSuffixIgnoringCase(input, lowercasedPattern)
    }

    /// Whether `input` starts with `pattern`.
    static func hasPrefix(_ input: UnsafeRawBufferPointer, _ pattern: UnsafeRawBufferPointer) -> Bool {
        guard input.count >= pattern.count else { return false }
        var i = 0
        while i < pattern.count {
            if input[i] != pattern[i] { return false }
            i += 1
        }
        return true
    }

    /// Whether `input`, ASCII-lowercased, ends with the already lowercased `pattern`
    /// starting at `input.count - pattern.count` (so equality is the case of equal counts).
    static func hasSuffixIgnoringCase(_ input: UnsafeRawBufferPointer, _ lowercasedPattern: UnsafeRawBufferPointer) -> Bool {
        guard input.count >= lowercasedPattern.count else { return false }
        let start = input.count - lowercasedPattern.count
        var i = 0
        while i < lowercasedPattern.count {
            if lower(input[start + i]) != lowercasedPattern[i] { return false }
            i += 1
        }
        return true
    }

    /// Glob match: `*` is any run of bytes (including `/`), `?` exactly one byte (a plain
    /// byte when `questionMarkIsWildcard` is false: header and query values). Two pointers
    /// with backtracking to the last star: O(n·m) worst case, never exponential.
    static func glob(
        _ input: UnsafeRawBufferPointer, _ pattern: UnsafeRawBufferPointer, questionMarkIsWildcard: Bool = true
    ) -> Bool {
        let star = UInt8(ascii: "*")
        // 0x2A never equals "?" so a literal "?" only matches itself when wildcards are off.
        let any = questionMarkIsWildcard ? UInt8(ascii: "?") : star
        var pi = 0
        var si = 0
        var lastStar = -1
        var resume = 0
        while si < input.count {
            if pi < pattern.count && pattern[pi] == star {
                lastStar = pi
                resume = si
                pi += 1
            } else if pi < pattern.count && (pattern[pi] == any || pattern[pi] == input[si]) {
                pi += 1
                si += 1
            } else if lastStar >= 0 {
                // Let the last star swallow one more byte and retry from there.
                pi = lastStar + 1
                resume += 1
                si = resume
            } else {
                return false
            }
        }
        while pi < pattern.count && pattern[pi] == star { pi += 1 }
        return pi == pattern.count
    }

    /// The host part of a Host header value: without `:port`, keeping IPv6 brackets,
    /// and without one trailing dot (`example.com.` names the same host).
    static func hostWithoutPort(_ value: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var end = value.count
        if end > 0 && value[0] == UInt8(ascii: "[") {
            var i = 1
            while i < value.count {
                if value[i] == UInt8(ascii: "]") {
                    end = i + 1
                    break
                }
                i += 1
            }
        } else {
            var i = 0
            while i < value.count {
                if value[i] == UInt8(ascii: ":") {
                    end = i
                    break
                }
                i += 1
            }
        }
        if end > 1 && value[end - 1] == UInt8(ascii: ".") { end -= 1 }
        return UnsafeRawBufferPointer(rebasing: value[0..<end])
    }
}
