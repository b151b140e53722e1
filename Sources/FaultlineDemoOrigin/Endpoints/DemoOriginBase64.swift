/// Standard base64 with padding (RFC 4648), enough for the WebSocket handshake.
enum DemoOriginBase64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Encodes `bytes`.
    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let remaining = bytes.count - index
            let b0 = UInt32(bytes[index])
            let b1 = remaining > 1 ? UInt32(bytes[index + 1]) : 0
            let b2 = remaining > 2 ? UInt32(bytes[index + 2]) : 0
            let triple = b0 << 16 | b1 << 8 | b2
            out.append(alphabet[Int(triple >> 18 & 63)])
            out.append(alphabet[Int(triple >> 12 & 63)])
            out.append(remaining > 1 ? alphabet[Int(triple >> 6 & 63)] : UInt8(ascii: "="))
            out.append(remaining > 2 ? alphabet[Int(triple & 63)] : UInt8(ascii: "="))
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// How many bytes `text` decodes to, or nil if it is not canonical padded base64.
    static func decodedLength(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard bytes.count % 4 == 0, !bytes.isEmpty else { return nil }
        var padding = 0
        for (position, byte) in bytes.enumerated() {
            if byte == UInt8(ascii: "=") {
                guard position >= bytes.count - 2 else { return nil }
                padding += 1
            } else if padding > 0 || !alphabet.contains(byte) {
                return nil
            }
        }
        return bytes.count / 4 * 3 - padding
    }
}
