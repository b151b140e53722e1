import Foundation

/// Hand-built HTTP/2 frames for what the h2 package refuses to send (a stream beyond the
/// peer's limit, an oversized SETTINGS frame), as hex for h2probe's `raw` action. Header
/// fields are HPACK literals without indexing and without Huffman coding (RFC 7541 §6.2.2),
/// so the peer's dynamic table is untouched.
enum HPACKLiterals {
    /// A HEADERS frame (END_HEADERS, and END_STREAM when asked) carrying `fields` on `streamID`.
    static func headersFrame(streamID: UInt32, endStream: Bool, _ fields: [(String, String)]) -> String {
        var block: [UInt8] = []
        for (name, value) in fields {
            block.append(0)
            block += integer(name.utf8.count) + Array(name.utf8)
            block += integer(value.utf8.count) + Array(value.utf8)
        }
        return hex(frame(type: 1, flags: endStream ? 0x5 : 0x4, streamID: streamID, block))
    }

    /// A SETTINGS frame with `count` entries (each SETTINGS_INITIAL_WINDOW_SIZE 65535).
    static func settingsFrame(entries count: Int) -> String {
        let entry: [UInt8] = [0, 4, 0, 0, 0xff, 0xff]
        return hex(frame(type: 4, flags: 0, streamID: 0, Array((0..<count).map { _ in entry }.joined())))
    }

    private static func frame(type: UInt8, flags: UInt8, streamID: UInt32, _ payload: [UInt8]) -> [UInt8] {
        let length = payload.count
        return [UInt8(length >> 16 & 0xff), UInt8(length >> 8 & 0xff), UInt8(length & 0xff), type, flags,
                UInt8(streamID >> 24 & 0x7f), UInt8(streamID >> 16 & 0xff), UInt8(streamID >> 8 & 0xff), UInt8(streamID & 0xff)]
            + payload
    }

    /// An HPACK integer with a 7-bit prefix (RFC 7541 §5.1), the H bit clear.
    private static func integer(_ value: Int) -> [UInt8] {
        guard value >= 127 else { return [UInt8(value)] }
        var bytes: [UInt8] = [127]
        var rest = value - 127
        while rest >= 128 {
            bytes.append(UInt8(rest % 128 + 128))
            rest /= 128
        }
        bytes.append(UInt8(rest))
        return bytes
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }
}
