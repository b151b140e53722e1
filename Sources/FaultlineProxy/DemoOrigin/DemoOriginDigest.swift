private import COpenSSL

/// An incremental SHA-256 over OpenSSL's EVP API, so `/echo` can hash a body of any size
/// without holding it.
final class DemoOriginDigest {
    private let context: OpaquePointer?

    init() {
        context = EVP_MD_CTX_new()
        if let context { EVP_DigestInit_ex(context, EVP_sha256(), nil) }
    }

    deinit {
        EVP_MD_CTX_free(context)
    }

    /// Adds `bytes` to the digest.
    func update(_ bytes: UnsafeRawBufferPointer) {
        guard let context, let base = bytes.baseAddress, !bytes.isEmpty else { return }
        EVP_DigestUpdate(context, base, bytes.count)
    }

    /// The digest as lowercase hex; call once.
    func finishHex() -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard let context, EVP_DigestFinal_ex(context, &digest, &length) == 1 else { return "" }
        return DemoOriginDigest.hex(digest.prefix(Int(length)))
    }

    /// SHA-1 of `bytes` (the WebSocket handshake's only use of SHA-1).
    static func sha1(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { raw in
            EVP_Digest(raw.baseAddress, raw.count, &digest, &length, EVP_sha1(), nil)
        }
        return ok == 1 ? Array(digest.prefix(Int(length))) : []
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
