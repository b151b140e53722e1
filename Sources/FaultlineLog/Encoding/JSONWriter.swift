import FaultlineHTTP

/// Hand-written JSON output for log lines: correct string escaping (control characters,
/// quotes, backslashes, DEL, U+2028/U+2029), integers and fixed-point milliseconds,
/// without Foundation. Swift strings are valid UTF-8, so invalid input bytes have already
/// become U+FFFD when the text was decoded.
struct JSONWriter: ~Copyable {
    /// The text written so far.
    var out: LineBuffer
    private var needsComma = false

    /// A writer with room for about `capacity` bytes before its buffer grows.
    init(capacity: Int = 256) {
        out = LineBuffer(capacity: capacity)
    }

    /// The bytes written so far.
    var bytes: [UInt8] { out.array }

    private static let hex = Array("0123456789abcdef".utf8)

    /// Opens the object.
    mutating func begin() {
        out.append(UInt8(ascii: "{"))
        needsComma = false
    }

    /// Closes the object and ends the line.
    mutating func end() {
        out.append(UInt8(ascii: "}"))
        out.append(10)
    }

    /// Writes `"key":` with a separating comma when needed.
    mutating func key(_ key: String) {
        if takeComma() { out.append(UInt8(ascii: ",")) }
        string(key)
        out.append(UInt8(ascii: ":"))
    }

    /// Writes `"<prefix><suffix>":`, e.g. `"http.request.header.accept":`.
    mutating func key(_ prefix: StaticString, suffix: String) {
        if takeComma() { out.append(UInt8(ascii: ",")) }
        out.append(UInt8(ascii: "\""))
        out.append(prefix)
        contents(suffix)
        out.append(UInt8(ascii: "\""))
        out.append(UInt8(ascii: ":"))
    }

    /// Writes `"key":` for a fixed key, which needs no escaping.
    mutating func key(_ key: StaticString) {
        let comma = takeComma()
        out.compose(capacity: key.utf8CodeUnitCount + 4) { Self.putKey(key, comma: comma, &$0) }
    }

    /// Whether the next member needs a comma before it; from now on the next one does.
    private mutating func takeComma() -> Bool {
        defer { needsComma = true }
        return needsComma
    }

    /// `,"key":` (the comma when `comma`) into `line`; room for the key's length + 4.
    private static func putKey(_ key: StaticString, comma: Bool, _ line: inout ByteComposer) {
        if comma { line.put(UInt8(ascii: ",")) }
        line.put(UInt8(ascii: "\""))
        line.put(key)
        line.put(UInt8(ascii: "\""))
        line.put(UInt8(ascii: ":"))
    }

    /// A string member, skipped when nil. Key and value are appended at once when the value
    /// is short and needs no escaping (nearly every value of an exchange's line).
    mutating func member(_ name: StaticString, _ value: String?) {
        guard var value else { return }
        let done = value.withUTF8 { utf8 -> Bool in
            guard utf8.count <= ByteComposer.composedValueLimit, Self.isPlain(utf8) else { return false }
            let comma = takeComma()
            out.compose(capacity: name.utf8CodeUnitCount + utf8.count + 6) { line in
                Self.putKey(name, comma: comma, &line)
                line.put(UInt8(ascii: "\""))
                line.put(UnsafeRawBufferPointer(utf8))
                line.put(UInt8(ascii: "\""))
            }
            return true
        }
        guard !done else { return }
        key(name)
        string(value)
    }

    /// An integer member, skipped when nil.
    mutating func member(_ name: StaticString, _ value: Int?) {
        guard let value else { return }
        let comma = takeComma()
        out.compose(capacity: name.utf8CodeUnitCount + 25) { line in
            Self.putKey(name, comma: comma, &line)
            if value < 0 { line.put(UInt8(ascii: "-")) }
            line.putDigits(UInt64(value.magnitude))
        }
    }

    /// `true`, skipped when false.
    mutating func member(_ name: StaticString, flag: Bool) {
        guard flag else { return }
        key(name)
        out.append("true")
    }

    /// A milliseconds member with three decimals, skipped when nil or not finite.
    mutating func member(_ name: StaticString, milliseconds value: Double?) {
        guard let value, value.isFinite else { return }
        let comma = takeComma()
        out.compose(capacity: name.utf8CodeUnitCount + 28) { line in
            Self.putKey(name, comma: comma, &line)
            line.putMilliseconds(micros: Self.micros(value))
        }
    }

    /// A member whose value is `time` as an RFC 3339 string.
    mutating func member(_ name: StaticString, time: LogTimestamp) {
        let comma = takeComma()
        out.compose(capacity: name.utf8CodeUnitCount + 6 + LogTimestamp.maxLength) { line in
            Self.putKey(name, comma: comma, &line)
            line.put(UInt8(ascii: "\""))
            time.put(into: &line)
            line.put(UInt8(ascii: "\""))
        }
    }

    /// A string-array member, skipped when empty.
    mutating func member(_ name: StaticString, _ values: [String]) {
        guard !values.isEmpty else { return }
        key(name)
        array(values)
    }

    /// Writes a JSON array of strings.
    mutating func array(_ values: [String]) {
        out.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            string(value)
        }
        out.append(UInt8(ascii: "]"))
    }

    /// Writes a JSON string.
    mutating func string(_ text: String) {
        out.append(UInt8(ascii: "\""))
        contents(text)
        out.append(UInt8(ascii: "\""))
    }

    /// Writes the inside of a JSON string: most values need no escaping and are copied whole.
    private mutating func contents(_ text: String) {
        var text = text
        let plain = text.withUTF8 { utf8 -> Bool in
            guard Self.isPlain(utf8) else { return false }
            out.append(UnsafeRawBufferPointer(utf8))
            return true
        }
        if !plain { escaped(text) }
    }

    /// Whether `utf8` can be written between quotes as it is: no control character, quote,
    /// backslash, DEL or non-ASCII byte (U+2028 and U+2029 must be escaped).
    /// Eight bytes at a time: a line is several hundred bytes of strings, and the byte loop
    /// cost about five instructions per byte.
    private static func isPlain(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = utf8.baseAddress else { return true }
        var index = 0
        while index + 8 <= utf8.count {
            if wordNeedsEscaping(UnsafeRawPointer(base).loadUnaligned(fromByteOffset: index, as: UInt64.self)) { return false }
            index += 8
        }
        while index < utf8.count {
            let byte = base[index]
            if byte < 0x20 || byte == 34 || byte == 92 || byte >= 0x7F { return false }
            index += 1
        }
        return true
    }

    /// Whether any of the eight bytes of `word` is below 0x20, a quote, a backslash, DEL or
    /// non-ASCII. Once no byte has its high bit set, adding one to every byte carries into no
    /// neighbour, and "some byte is below n" is the classic borrow test.
    private static func wordNeedsEscaping(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        if word & highs != 0 { return true }
        let control = (word &- ones &* 0x20) & ~word & highs
        let quoteBits = word ^ (ones &* 0x22)
        let quote = (quoteBits &- ones) & ~quoteBits & highs
        let backslashBits = word ^ (ones &* 0x5C)
        let backslash = (backslashBits &- ones) & ~backslashBits & highs
        let delete = (word &+ ones) & highs
        return control | quote | backslash | delete != 0
    }

    private mutating func escaped(_ text: String) {
        var previous: (UInt8, UInt8) = (0, 0)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append("\\\"")
            case UInt8(ascii: "\\"): out.append("\\\\")
            case 10: out.append("\\n")
            case 13: out.append("\\r")
            case 9: out.append("\\t")
            case 0..<0x20, 0x7F: unicodeEscape(UInt16(byte))
            case 0xA8...0xA9 where previous == (0xE2, 0x80):
                out.removeLast(2)
                unicodeEscape(0x2000 | UInt16(byte - 0x80))
            default: out.append(byte)
            }
            previous = (previous.1, byte)
        }
    }

    /// Writes a decimal integer; total over Int. (Int.min's magnitude does not fit an Int64:
    /// the digits come from the UInt magnitude, so no value a peer can make traps here.)
    mutating func integer(_ value: Int) {
        out.compose(capacity: 21) { line in
            if value < 0 { line.put(UInt8(ascii: "-")) }
            line.putDigits(UInt64(value.magnitude))
        }
    }

    private mutating func unicodeEscape(_ code: UInt16) {
        out.append("\\u")
        for shift in stride(from: 12, through: 0, by: -4) {
            out.append(Self.hex[Int((code >> UInt16(shift)) & 0xF)])
        }
    }

    /// Appends `value` (milliseconds, clamped at 0) with three decimals: `12.345`.
    static func milliseconds(_ value: Double, _ out: inout [UInt8]) {
        let whole = micros(value)
        ByteComposer.append(capacity: 24, to: &out) { $0.putMilliseconds(micros: whole) }
    }

    /// Whole microseconds of `value` milliseconds, clamped to 0...1e12 ms.
    private static func micros(_ value: Double) -> UInt64 {
        UInt64((max(0, min(value, 1e12)) * 1000).rounded())
    }

    /// Writes a duration given in microseconds as milliseconds with three decimals: `12.345`.
    mutating func milliseconds(micros: UInt64) {
        out.compose(capacity: 24) { $0.putMilliseconds(micros: micros) }
    }
}
