import FaultlineTestSupport

/// A strict JSON (RFC 8259) checker that, unlike Foundation's `JSONSerialization`, refuses
/// an object holding the same key twice: most JSON consumers keep only the last of them,
/// so a repeated key in a log record or HAR document silently loses data. It validates
/// and reports the first problem; it builds nothing.
struct StrictJSON {
    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0

    /// The first problem of `text` as one JSON document (nil when it is valid with unique keys).
    static func problem(_ text: String) -> String? {
        var checker = StrictJSON(bytes: Array(text.utf8))
        do throws(TestFailure) {
            try checker.value()
            checker.skipSpace()
            guard checker.index == checker.bytes.count else { throw checker.failure("trailing bytes") }
            return nil
        } catch {
            return error.description
        }
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private func failure(_ what: String) -> TestFailure {
        let start = max(0, index - 60)
        let context = String(decoding: bytes[start..<min(bytes.count, index + 60)], as: UTF8.self)
        return TestFailure("\(what) at byte \(index): …\(context)…")
    }

    private mutating func skipSpace() {
        while index < bytes.count, [32, 9, 10, 13].contains(bytes[index]) { index += 1 }
    }

    private mutating func value() throws(TestFailure) {
        skipSpace()
        guard index < bytes.count else { throw failure("a value is missing") }
        switch bytes[index] {
        case UInt8(ascii: "{"): try object()
        case UInt8(ascii: "["): try array()
        case UInt8(ascii: "\""): _ = try string()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        default: try number()
        }
    }

    private mutating func nest() throws(TestFailure) {
        depth += 1
        guard depth < 512 else { throw failure("nested too deep") }
    }

    private mutating func object() throws(TestFailure) {
        try nest()
        index += 1
        var keys = Set<[UInt8]>()
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return
        }
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw failure("a key is missing") }
            let key = try string()
            guard keys.insert(key).inserted else {
                throw failure("duplicate key \"\(String(decoding: key, as: UTF8.self))\"")
            }
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw failure("':' is missing") }
            index += 1
            try value()
            skipSpace()
            guard index < bytes.count else { throw failure("unterminated object") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "}") else { throw failure("',' or '}' expected") }
            index += 1
            depth -= 1
            return
        }
    }

    private mutating func array() throws(TestFailure) {
        try nest()
        index += 1
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return
        }
        while true {
            try value()
            skipSpace()
            guard index < bytes.count else { throw failure("unterminated array") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "]") else { throw failure("',' or ']' expected") }
            index += 1
            depth -= 1
            return
        }
    }

    /// The string's decoded bytes (escapes resolved, so `"a"` and `"\u0061"` are one key).
    private mutating func string() throws(TestFailure) -> [UInt8] {
        index += 1
        var out: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return out
            case UInt8(ascii: "\\"):
                guard index + 1 < bytes.count else { throw failure("unterminated escape") }
                let next = bytes[index + 1]
                switch next {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(next)
                case UInt8(ascii: "b"): out.append(8)
                case UInt8(ascii: "f"): out.append(12)
                case UInt8(ascii: "n"): out.append(10)
                case UInt8(ascii: "r"): out.append(13)
                case UInt8(ascii: "t"): out.append(9)
                case UInt8(ascii: "u"):
                    guard index + 6 <= bytes.count,
                          let code = UInt16(String(decoding: bytes[(index + 2)..<(index + 6)], as: UTF8.self), radix: 16) else {
                        throw failure("bad \\u escape")
                    }
                    // Kept as the escape's code unit: enough to compare keys.
                    out.append(UInt8(code >> 8))
                    out.append(UInt8(code & 0xFF))
                    index += 4
                default:
                    throw failure("bad escape")
                }
                index += 2
            case 0..<0x20:
                throw failure("control character in a string")
            default:
                out.append(byte)
                index += 1
            }
        }
        throw failure("unterminated string")
    }

    private mutating func literal(_ word: String) throws(TestFailure) {
        let expected = Array(word.utf8)
        guard bytes.count >= index + expected.count, Array(bytes[index..<(index + expected.count)]) == expected else {
            throw failure("bad literal")
        }
        index += expected.count
    }

    private mutating func number() throws(TestFailure) {
        let start = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        let digits = index
        while index < bytes.count, (48...57).contains(bytes[index]) { index += 1 }
        guard index > digits else { throw failure("bad value") }
        guard bytes[digits] != 48 || index == digits + 1 else { throw failure("leading zero") }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let fraction = index
            while index < bytes.count, (48...57).contains(bytes[index]) { index += 1 }
            guard index > fraction else { throw failure("bad fraction") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            let exponent = index
            while index < bytes.count, (48...57).contains(bytes[index]) { index += 1 }
            guard index > exponent else { throw failure("bad exponent") }
        }
        guard index > start else { throw failure("bad value") }
    }
}
