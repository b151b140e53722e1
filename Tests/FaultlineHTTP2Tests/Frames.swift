/// Raw HTTP/2 frames for tests that play a hostile peer.
enum Frames {
    /// One frame: 24-bit length, type, flags, 31-bit stream id, payload.
    static func frame(type: UInt8, flags: UInt8, stream: UInt32, payload: [UInt8]) -> [UInt8] {
        let length = payload.count
        return [UInt8(length >> 16 & 0xff), UInt8(length >> 8 & 0xff), UInt8(length & 0xff), type, flags,
                UInt8(stream >> 24 & 0x7f), UInt8(stream >> 16 & 0xff), UInt8(stream >> 8 & 0xff), UInt8(stream & 0xff)] + payload
    }

    /// An empty SETTINGS frame.
    static func settings() -> [UInt8] { frame(type: 0x4, flags: 0, stream: 0, payload: []) }

    /// A PING frame.
    static func ping() -> [UInt8] { frame(type: 0x6, flags: 0, stream: 0, payload: [UInt8](repeating: 0, count: 8)) }

    /// The frames in `bytes` (a server's output), without checking them.
    static func parse(_ bytes: [UInt8]) -> [(type: UInt8, flags: UInt8, stream: UInt32, payload: [UInt8])] {
        var frames: [(type: UInt8, flags: UInt8, stream: UInt32, payload: [UInt8])] = []
        var index = 0
        while index + 9 <= bytes.count {
            let length = Int(bytes[index]) << 16 | Int(bytes[index + 1]) << 8 | Int(bytes[index + 2])
            let stream = UInt32(bytes[index + 5] & 0x7f) << 24 | UInt32(bytes[index + 6]) << 16 | UInt32(bytes[index + 7]) << 8 | UInt32(bytes[index + 8])
            let end = min(bytes.count, index + 9 + length)
            frames.append((bytes[index + 3], bytes[index + 4], stream, Array(bytes[(index + 9)..<end])))
            index = end
        }
        return frames
    }

    /// A request HEADERS block (END_HEADERS, END_STREAM) in HPACK with `:method GET`,
    /// `:scheme https`, `:path /`, `:authority a.test` and `extra` as literal fields sent as they are.
    static func request(stream: UInt32, _ extra: [(String, String)]) -> [UInt8] {
        var block: [UInt8] = [0x82, 0x87, 0x84, 0x01, 6] + Array("a.test".utf8)
        for (name, value) in extra {
            block += [0x00, UInt8(name.utf8.count)] + Array(name.utf8) + [UInt8(value.utf8.count)] + Array(value.utf8)
        }
        return frame(type: 0x1, flags: 0x5, stream: stream, payload: block)
    }

    /// The client preface and an empty SETTINGS frame.
    static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8) + settings()
}
