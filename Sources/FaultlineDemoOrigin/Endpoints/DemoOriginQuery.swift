/// Query-string parsing for the demo origin: `a=1&b=x+y` with percent-decoding and `+` as space.
enum DemoOriginQuery {
    /// The decoded name/value pairs of `query` (the part after `?`), in order.
    static func parameters(_ query: Substring) -> [(name: String, value: String)] {
        query.split(separator: "&", omittingEmptySubsequences: true).map { part in
            if let equals = part.firstIndex(of: "=") {
                return (decode(part[..<equals]), decode(part[part.index(after: equals)...]))
            }
            return (decode(part), "")
        }
    }

    /// Percent-decodes `text`, `+` meaning space; malformed escapes are kept literally and
    /// invalid UTF-8 is repaired rather than refused (a demo should answer, not argue).
    static func decode(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = Array(text.utf8)[...]
        while let byte = iterator.popFirst() {
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), iterator.count >= 2,
                      let high = hexValue(iterator[iterator.startIndex]),
                      let low = hexValue(iterator[iterator.startIndex + 1]) {
                bytes.append(high << 4 | low)
                iterator = iterator.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
