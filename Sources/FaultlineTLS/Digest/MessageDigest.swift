private import COpenSSL

/// A hash over OpenSSL's EVP API, fed in pieces, so modules above this one (the demo
/// origin hashes bodies of any size without holding them) need no C module of their own.
public final class MessageDigest {
    /// The hash functions offered.
    public enum Algorithm: Sendable {
        /// SHA-256.
        case sha256
        /// SHA-1, for protocols that still require it (the WebSocket handshake).
        case sha1
    }

    private let context: OpaquePointer?

    /// Starts an empty digest.
    public init(_ algorithm: Algorithm) {
        context = EVP_MD_CTX_new()
        if let context { EVP_DigestInit_ex(context, MessageDigest.method(algorithm), nil) }
    }

    deinit {
        EVP_MD_CTX_free(context)
    }

    /// Adds `bytes` to the digest.
    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard let context, let base = bytes.baseAddress, !bytes.isEmpty else { return }
        EVP_DigestUpdate(context, base, bytes.count)
    }

    /// The digest of everything added; call once. Empty if OpenSSL failed.
    public func finish() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard let context, EVP_DigestFinal_ex(context, &digest, &length) == 1 else { return [] }
        return Array(digest.prefix(Int(length)))
    }

    /// The digest of `bytes` in one call. Empty if OpenSSL failed.
    public static func hash(_ bytes: [UInt8], _ algorithm: Algorithm) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { raw in
            EVP_Digest(raw.baseAddress, raw.count, &digest, &length, method(algorithm), nil)
        }
        return ok == 1 ? Array(digest.prefix(Int(length))) : []
    }

    private static func method(_ algorithm: Algorithm) -> OpaquePointer? {
        switch algorithm {
        case .sha256: EVP_sha256()
        case .sha1: EVP_sha1()
        }
    }
}
