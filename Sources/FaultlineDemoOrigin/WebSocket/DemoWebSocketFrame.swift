/// Server-to-client WebSocket frame encoding (unmasked, as RFC 6455 requires of servers).
enum DemoWebSocketFrame {
    /// The header of a frame with `length` payload bytes.
    static func header(fin: Bool, opcode: UInt8, length: UInt64) -> [UInt8] {
        var out: [UInt8] = [(fin ? 0x80 : 0) | (opcode & 0x0f)]
        if length < 126 {
            out.append(UInt8(length))
        } else if length <= UInt64(UInt16.max) {
            out.append(126)
            out.append(UInt8(length >> 8))
            out.append(UInt8(length & 0xff))
        } else {
            out.append(127)
            for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(length >> UInt64(shift) & 0xff)) }
        }
        return out
    }

    /// A whole final frame.
    static func frame(opcode: UInt8, payload: [UInt8]) -> [UInt8] {
        header(fin: true, opcode: opcode, length: UInt64(payload.count)) + payload
    }

    /// A close frame carrying `code` (and no reason text).
    static func close(code: UInt16) -> [UInt8] {
        frame(opcode: 8, payload: [UInt8(code >> 8), UInt8(code & 0xff)])
    }
}
