/// Builds one readable text line. Everything that came from the network is escaped, so
/// a path or header cannot break the line or smuggle terminal escape sequences: control
/// characters (C0, DEL and C1) become `\n`, `\t`, `\xNN` or `\u{NN}`. ANSI colour is only
/// written when `colour` is on.
struct TextWriter {
    /// Terminal colours used by the text form.
    enum Colour: String {
        case dim = "2", red = "31", green = "32", yellow = "33", magenta = "35", cyan = "36"
    }

    /// The bytes written so far.
    var bytes: [UInt8] = []
    /// Whether ANSI colour codes are written.
    let colour: Bool

    private static let hex = Array("0123456789abcdef".utf8)

    /// Appends literal text (the writer's own, not escaped).
    mutating func raw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// Appends a separating space, then `text` escaped, in `colour` when asked.
    mutating func word(_ text: String, _ tint: Colour? = nil) {
        if !bytes.isEmpty { bytes.append(32) }
        paint(tint) { $0.escaped(text, quoteIfNeeded: false) }
    }

    /// Appends ` key=value`, quoting the value when it has spaces or quotes.
    mutating func pair(_ key: String, _ value: String?, _ tint: Colour? = nil) {
        guard let value else { return }
        if !bytes.isEmpty { bytes.append(32) }
        paint(tint) {
            $0.escaped(key, quoteIfNeeded: false)
            $0.bytes.append(UInt8(ascii: "="))
            $0.escaped(value, quoteIfNeeded: true)
        }
    }

    /// Ends the line.
    mutating func end() {
        bytes.append(10)
    }

    private mutating func paint(_ tint: Colour?, _ body: (inout TextWriter) -> Void) {
        guard colour, let tint else {
            body(&self)
            return
        }
        raw("\u{1B}[\(tint.rawValue)m")
        body(&self)
        raw("\u{1B}[0m")
    }

    private mutating func escaped(_ text: String, quoteIfNeeded: Bool) {
        let quote = quoteIfNeeded && (text.isEmpty || text.utf8.contains { $0 == 32 || $0 == 34 || $0 == 61 })
        if quote { bytes.append(34) }
        var afterC2 = false
        for byte in text.utf8 {
            switch byte {
            case 10: bytes.append(contentsOf: [92, UInt8(ascii: "n")])
            case 13: bytes.append(contentsOf: [92, UInt8(ascii: "r")])
            case 9: bytes.append(contentsOf: [92, UInt8(ascii: "t")])
            case 92: bytes.append(contentsOf: [92, 92])
            case 34 where quote: bytes.append(contentsOf: [92, 34])
            case 0..<0x20, 0x7F:
                bytes.append(contentsOf: [92, UInt8(ascii: "x"), Self.hex[Int(byte >> 4)], Self.hex[Int(byte & 0xF)]])
            case 0x80...0x9F where afterC2:
                bytes.removeLast()
                bytes.append(contentsOf: Array("\\u{\(String(byte, radix: 16))}".utf8))
            default: bytes.append(byte)
            }
            afterC2 = byte == 0xC2
        }
        if quote { bytes.append(34) }
    }
}
