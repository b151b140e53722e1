import FaultlineTLS

/// An incremental SHA-256, so `/echo` can hash a body of any size without holding it.
final class DemoOriginDigest {
    private let digest = MessageDigest(.sha256)

    /// Adds `bytes` to the digest.
    func update(_ bytes: UnsafeRawBufferPointer) {
        digest.update(bytes)
    }

    /// The digest as lowercase hex; call once.
    func finishHex() -> String {
        DemoOriginDigest.hex(digest.finish())
    }

    /// SHA-1 of `bytes` (the WebSocket handshake's only use of SHA-1).
    static func sha1(_ bytes: [UInt8]) -> [UInt8] {
        MessageDigest.hash(bytes, .sha1)
    }

    /// Lowercase hex of `bytes`.
    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
