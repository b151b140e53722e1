/// Decodes `application/x-www-form-urlencoded` and query names: `%XX` and `+` for space.
/// Malformed escapes are kept as they are; it never fails.
enum PercentDecoding {
    /// The decoded bytes of `encoded`.
    static func decode(_ encoded: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(encoded.count)
        var index = encoded.startIndex
        while index < encoded.endIndex {
            let byte = encoded[index]
            if byte == UInt8(ascii: "+") {
                out.append(32)
            } else if byte == UInt8(ascii: "%"), index + 2 < encoded.endIndex,
                      let high = hexValue(encoded[index + 1]), let low = hexValue(encoded[index + 2]) {
                out.append(high << 4 | low)
                index += 3
                continue
            } else {
                out.append(byte)
            }
            index += 1
        }
        return out
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 48...57: byte - 48
        case 65...70: byte - 55
        case 97...102: byte - 87
        default: nil
        }
    }
}
