/// Decodes `application/x-www-form-urlencoded` and query names and values: `%XX` and `+`
/// for space; encodes values back.
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

    /// `bytes` percent-encoded for a query or form value: everything but unreserved
    /// characters (and the placeholder's brackets, kept readable) as `%XX`.
    static func encode(_ bytes: [UInt8]) -> [UInt8] {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 2)
        for byte in bytes {
            switch byte {
            case 48...57, 65...90, 97...122, UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
                 UInt8(ascii: "["), UInt8(ascii: "]"):
                out.append(byte)
            default:
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            }
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
