/// Hand-written JSON output for log lines: correct string escaping (control characters,
/// quotes, backslashes, DEL, U+2028/U+2029), integers and fixed-point milliseconds,
/// without Foundation. Swift strings are valid UTF-8, so invalid input bytes have already
/// become U+FFFD when the text was decoded.
struct JSONWriter {
    /// The bytes written so far.
    var bytes: [UInt8] = []
    private var needsComma = false

    private static let hex = Array("0123456789abcdef".utf8)

    /// Opens the object.
    mutating func begin() {
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
    }

    /// Closes the object and ends the line.
    mutating func end() {
        bytes.append(UInt8(ascii: "}"))
        bytes.append(10)
    }

    /// Writes `"key":` with a separating comma when needed.
    mutating func key(_ key: String) {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        needsComma = true
        string(key)
        bytes.append(UInt8(ascii: ":"))
    }

    /// Writes `"<prefix><suffix>":`, e.g. `"http.request.header.accept":`.
    mutating func key(_ prefix: StaticString, suffix: String) {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        needsComma = true
        let mark = bytes.count
        string(suffix)
        bytes.insert(contentsOf: UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount), at: mark + 1)
        bytes.append(UInt8(ascii: ":"))
    }

    /// Writes `"key":` for a fixed key, which needs no escaping.
    mutating func key(_ key: StaticString) {
        // Composed on the stack and appended once: this runs for every member of every line,
        // and each append to the array checks its storage again.
        let count = key.utf8CodeUnitCount
        let comma = needsComma
        needsComma = true
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count + 4) { text in
            var end = 0
            if comma {
                text[0] = UInt8(ascii: ",")
                end = 1
            }
            text[end] = UInt8(ascii: "\"")
            UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(text)[(end + 1)...])
                .copyMemory(from: UnsafeRawBufferPointer(start: key.utf8Start, count: count))
            end += count + 1
            text[end] = UInt8(ascii: "\"")
            text[end + 1] = UInt8(ascii: ":")
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: text[..<(end + 2)]))
        }
    }

    /// A string member, skipped when nil.
    mutating func member(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        key(name)
        string(value)
    }

    /// An integer member, skipped when nil.
    mutating func member(_ name: StaticString, _ value: Int?) {
        guard let value else { return }
        key(name)
        integer(value)
    }

    /// `true`, skipped when false.
    mutating func member(_ name: StaticString, flag: Bool) {
        guard flag else { return }
        key(name)
        bytes.append(contentsOf: "true".utf8)
    }

    /// A milliseconds member with three decimals, skipped when nil or not finite.
    mutating func member(_ name: StaticString, milliseconds value: Double?) {
        guard let value, value.isFinite else { return }
        key(name)
        Self.milliseconds(value, &bytes)
    }

    /// A string-array member, skipped when empty.
    mutating func member(_ name: StaticString, _ values: [String]) {
        guard !values.isEmpty else { return }
        key(name)
        array(values)
    }

    /// Writes a JSON array of strings.
    mutating func array(_ values: [String]) {
        bytes.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            string(value)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// Writes a JSON string.
    mutating func string(_ text: String) {
        var text = text
        // Most values need no escaping: copy them whole instead of byte by byte.
        let plain = text.withUTF8 { utf8 -> Bool in
            for byte in utf8 where byte < 0x20 || byte == 34 || byte == 92 || byte >= 0x7F { return false }
            guard utf8.count <= 254 else {
                bytes.append(UInt8(ascii: "\""))
                bytes.append(contentsOf: utf8)
                bytes.append(UInt8(ascii: "\""))
                return true
            }
            // A short value with its quotes, composed on the stack and appended once.
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: utf8.count + 2) { quoted in
                quoted[0] = UInt8(ascii: "\"")
                if let base = utf8.baseAddress, let target = quoted.baseAddress {
                    (target + 1).initialize(from: base, count: utf8.count)
                }
                quoted[utf8.count + 1] = UInt8(ascii: "\"")
                bytes.append(contentsOf: UnsafeBufferPointer(quoted))
            }
            return true
        }
        if !plain { escaped(text) }
    }

    private mutating func escaped(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var previous: (UInt8, UInt8) = (0, 0)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [92, 34])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [92, 92])
            case 10: bytes.append(contentsOf: [92, UInt8(ascii: "n")])
            case 13: bytes.append(contentsOf: [92, UInt8(ascii: "r")])
            case 9: bytes.append(contentsOf: [92, UInt8(ascii: "t")])
            case 0..<0x20, 0x7F: unicodeEscape(UInt16(byte))
            case 0xA8...0xA9 where previous == (0xE2, 0x80):
                bytes.removeLast(2)
                unicodeEscape(0x2000 | UInt16(byte - 0x80))
            default: bytes.append(byte)
            }
            previous = (previous.1, byte)
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Writes a decimal integer; total over Int. (Int.min's magnitude does not fit an Int64:
    /// the digits come from the UInt magnitude, so no value a peer can make traps here.)
    mutating func integer(_ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        Self.digits(UInt64(value.magnitude), &bytes)
    }

    /// Appends the decimal digits of `value` (1 to 20 of them), at least `width` with leading zeros.
    static func digits(_ value: UInt64, _ out: inout [UInt8], width: Int = 1) {
        // Written backwards into 20 bytes on the stack (UInt64.max has 20 digits), appended once.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { text in
            var rest = value
            var start = 20
            repeat {
                start -= 1
                text[start] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            } while rest > 0 || 20 - start < min(width, 20)
            out.append(contentsOf: UnsafeBufferPointer(rebasing: text[start...]))
        }
    }

    private mutating func unicodeEscape(_ code: UInt16) {
        bytes.append(contentsOf: [92, UInt8(ascii: "u")])
        for shift in stride(from: 12, through: 0, by: -4) {
            bytes.append(Self.hex[Int((code >> UInt16(shift)) & 0xF)])
        }
    }

    /// Appends `value` (milliseconds, clamped at 0) with three decimals: `12.345`.
    static func milliseconds(_ value: Double, _ out: inout [UInt8]) {
        milliseconds(micros: UInt64((max(0, min(value, 1e12)) * 1000).rounded()), &out)
    }

    /// Appends a duration given in microseconds as milliseconds with three decimals: `12.345`.
    static func milliseconds(micros: UInt64, _ out: inout [UInt8]) {
        digits(micros / 1000, &out)
        out.append(UInt8(ascii: "."))
        digits(micros % 1000, &out, width: 3)
    }
}
