private import COpenSSL

/// SHA-256 by OpenSSL, for checking bodies end to end (CryptoKit is not on Linux).
public enum SHA256 {
    /// The lowercase hex digest of `bytes`.
    public static func hex(_ bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let status = bytes.withUnsafeBytes { input in
            EVP_Digest(input.baseAddress, input.count, &digest, &length, EVP_sha256(), nil)
        }
        // EVP_Digest with a built-in algorithm fails only when out of memory.
        precondition(status == 1, "EVP_Digest failed")
        return digest.prefix(Int(length)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
