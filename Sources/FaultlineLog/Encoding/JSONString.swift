/// JSON string escapes for the redaction scanners, which work on the raw bytes between
/// the quotes: unescaping to compare names and scan text, escaping to write a redacted
/// string back.
enum JSONString {
    /// The text of a JSON string's raw content: `\n`, `\"`, `\\`, `\/`, `\uXXXX` (surrogate
    /// pairs joined) resolved. Malformed escapes are kept as the escaped character.
    static func unescape(_ raw: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var index = raw.startIndex
        while index < raw.endIndex {
            let byte = raw[index]
            guard byte == UInt8(ascii: "\\"), index + 1 < raw.endIndex else {
                out.append(byte)
                index += 1
                continue
            }
            let next = raw[index + 1]
            switch next {
            case UInt8(ascii: "n"): out.append(10)
            case UInt8(ascii: "r"): out.append(13)
            case UInt8(ascii: "t"): out.append(9)
            case UInt8(ascii: "b"): out.append(8)
            case UInt8(ascii: "f"): out.append(12)
            case UInt8(ascii: "u"):
                if let (scalar, length) = unicodeEscape(raw, at: index) {
                    out.append(contentsOf: String(Character(scalar)).utf8)
                    index += length
                    continue
                }
                out.append(next)
            default: out.append(next)
            }
            index += 2
        }
        return out
    }

    /// The scalar of `\uXXXX` (or a `\uD8xx\uDCxx` pair) at `index`, and the escape's length.
    private static func unicodeEscape(_ raw: ArraySlice<UInt8>, at index: Int) -> (Unicode.Scalar, Int)? {
        guard let high = hex4(raw, at: index + 2) else { return nil }
        if (0xD800..<0xDC00).contains(high), index + 12 <= raw.endIndex, raw[index + 6] == UInt8(ascii: "\\"),
           raw[index + 7] == UInt8(ascii: "u"), let low = hex4(raw, at: index + 8), (0xDC00..<0xE000).contains(low),
           let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)) {
            return (scalar, 12)
        }
        return (Unicode.Scalar(high) ?? "\u{FFFD}", 6)
    }

    private static func hex4(_ raw: ArraySlice<UInt8>, at index: Int) -> UInt32? {
        guard index + 4 <= raw.endIndex else { return nil }
        var value: UInt32 = 0
        for byte in raw[index..<(index + 4)] {
            guard ByteSearch.isHexDigit(byte) else { return nil }
            let digit: UInt8 = byte <= 57 ? byte - 48 : (byte | 0x20) - 87
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// `text` escaped as a JSON string's content (quotes, backslashes, control characters).
    static func escape(_ text: [UInt8]) -> [UInt8] {
        let hex = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.count + 8)
        for byte in text {
            switch byte {
            case UInt8(ascii: "\""): out += [92, 34]
            case UInt8(ascii: "\\"): out += [92, 92]
            case 10: out += [92, UInt8(ascii: "n")]
            case 13: out += [92, UInt8(ascii: "r")]
            case 9: out += [92, UInt8(ascii: "t")]
            case 0..<0x20: out += [92, UInt8(ascii: "u"), 48, 48, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: out.append(byte)
            }
        }
        return out
    }
}
