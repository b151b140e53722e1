/// A strict RFC 8259 validator, independent of Foundation: well-formed UTF-8 (no overlong
/// forms, no surrogates), no raw control characters in strings, only the standard escapes,
/// paired `\u` surrogates, the exact number grammar, nothing after the value but one
/// optional line feed, and (unlike the RFC, as Faultline's log promises) no key twice in
/// one object.
struct StrictJSON {
    /// What was wrong and where.
    struct Failure: Error, CustomStringConvertible {
        /// Byte offset of the problem.
        let offset: Int
        /// What was expected.
        let reason: String

        var description: String { "invalid JSON at byte \(offset): \(reason)" }
    }

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0
    private static let maxDepth = 512

    /// Validates `bytes`; returns nil when valid.
    static func check(_ bytes: [UInt8]) -> Failure? {
        var parser = StrictJSON(bytes: bytes)
        do throws(Failure) {
            parser.skipSpace()
            try parser.value()
            parser.skipSpace()
            if parser.index < bytes.count { throw parser.failure("text after the value") }
            return nil
        } catch {
            return error
        }
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private func failure(_ reason: String) -> Failure {
        Failure(offset: index, reason: reason)
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipSpace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }

    private mutating func expect(_ literal: String) throws(Failure) {
        for byte in literal.utf8 {
            guard current == byte else { throw failure("expected \(literal)") }
            index += 1
        }
    }

    private mutating func value() throws(Failure) {
        guard let byte = current else { throw failure("expected a value, got the end") }
        switch byte {
        case UInt8(ascii: "{"): try object()
        case UInt8(ascii: "["): try array()
        case UInt8(ascii: "\""): _ = try string()
        case UInt8(ascii: "t"): try expect("true")
        case UInt8(ascii: "f"): try expect("false")
        case UInt8(ascii: "n"): try expect("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
        default: throw failure("unexpected byte \(byte)")
        }
    }

    private mutating func nest() throws(Failure) {
        depth += 1
        if depth > Self.maxDepth { throw failure("nested deeper than \(Self.maxDepth)") }
    }

    private mutating func object() throws(Failure) {
        try nest()
        index += 1
        skipSpace()
        var keys = Set<[UInt8]>()
        if current == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return
        }
        while true {
            skipSpace()
            guard current == UInt8(ascii: "\"") else { throw failure("expected a key") }
            let keyStart = index
            let key = try string()
            if !keys.insert(key).inserted {
                throw Failure(offset: keyStart, reason: "duplicate key \(String(decoding: key, as: UTF8.self))")
            }
            skipSpace()
            guard current == UInt8(ascii: ":") else { throw failure("expected ':'") }
            index += 1
            skipSpace()
            try value()
            skipSpace()
            if current == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard current == UInt8(ascii: "}") else { throw failure("expected ',' or '}'") }
            index += 1
            depth -= 1
            return
        }
    }

    private mutating func array() throws(Failure) {
        try nest()
        index += 1
        skipSpace()
        if current == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return
        }
        while true {
            skipSpace()
            try value()
            skipSpace()
            if current == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard current == UInt8(ascii: "]") else { throw failure("expected ',' or ']'") }
            index += 1
            depth -= 1
            return
        }
    }

    private mutating func digits() -> Int {
        let start = index
        while let byte = current, byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") { index += 1 }
        return index - start
    }

    private mutating func number() throws(Failure) {
        if current == UInt8(ascii: "-") { index += 1 }
        if current == UInt8(ascii: "0") {
            index += 1
        } else if digits() == 0 {
            throw failure("expected digits")
        }
        if current == UInt8(ascii: ".") {
            index += 1
            if digits() == 0 { throw failure("expected digits after '.'") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            if digits() == 0 { throw failure("expected exponent digits") }
        }
    }

    /// Reads a string and returns its decoded UTF-8 bytes (for duplicate-key checks).
    private mutating func string() throws(Failure) -> [UInt8] {
        index += 1
        var decoded: [UInt8] = []
        while true {
            guard let byte = current else { throw failure("unterminated string") }
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return decoded
            case UInt8(ascii: "\\"):
                index += 1
                try escape(into: &decoded)
            case 0..<0x20:
                throw failure("raw control character \(byte) in a string")
            case 0x20..<0x80:
                decoded.append(byte)
                index += 1
            default:
                try utf8Sequence(into: &decoded)
            }
        }
    }

    private mutating func escape(into decoded: inout [UInt8]) throws(Failure) {
        guard let byte = current else { throw failure("unterminated escape") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(byte)
        case UInt8(ascii: "b"): decoded.append(8)
        case UInt8(ascii: "f"): decoded.append(12)
        case UInt8(ascii: "n"): decoded.append(10)
        case UInt8(ascii: "r"): decoded.append(13)
        case UInt8(ascii: "t"): decoded.append(9)
        case UInt8(ascii: "u"):
            var scalar = try hex4()
            if scalar >= 0xDC00 && scalar <= 0xDFFF { throw failure("unpaired low surrogate") }
            if scalar >= 0xD800 && scalar <= 0xDBFF {
                guard current == UInt8(ascii: "\\") else { throw failure("unpaired high surrogate") }
                index += 1
                guard current == UInt8(ascii: "u") else { throw failure("unpaired high surrogate") }
                index += 1
                let low = try hex4()
                guard low >= 0xDC00 && low <= 0xDFFF else { throw failure("high surrogate without a low one") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            if let unicode = Unicode.Scalar(scalar) {
                decoded.append(contentsOf: Array(String(Character(unicode)).utf8))
            }
        default:
            throw failure("invalid escape \\\(Character(Unicode.Scalar(byte)))")
        }
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current else { throw failure("short \\u escape") }
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw failure("bad hex digit in \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    /// One multi-byte UTF-8 sequence (RFC 3629 table 3: no overlongs, no surrogates, ≤ U+10FFFF).
    private mutating func utf8Sequence(into decoded: inout [UInt8]) throws(Failure) {
        let lead = bytes[index]
        let count: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: count = 2
        case 0xE0: count = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: count = 3
        case 0xED: count = 3; high = 0x9F
        case 0xF0: count = 4; low = 0x90
        case 0xF1...0xF3: count = 4
        case 0xF4: count = 4; high = 0x8F
        default: throw failure("invalid UTF-8 lead byte \(lead)")
        }
        guard index + count <= bytes.count else { throw failure("truncated UTF-8 sequence") }
        for offset in 1..<count {
            let byte = bytes[index + offset]
            let (min, max) = offset == 1 ? (low, high) : (UInt8(0x80), UInt8(0xBF))
            guard byte >= min && byte <= max else { throw failure("invalid UTF-8 continuation byte \(byte)") }
        }
        decoded.append(contentsOf: bytes[index..<(index + count)])
        index += count
    }
}
