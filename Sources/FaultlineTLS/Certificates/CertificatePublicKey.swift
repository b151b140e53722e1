private import COpenSSL

/// A public key as pins see it: its DER SubjectPublicKeyInfo and the SPKI pin
/// base64(SHA-256(SPKI DER)), plus a short description such as `EC P-256` or `RSA 2048`.
public struct CertificatePublicKey: Sendable, Hashable {
    /// `RSA 2048`, `EC P-256`, `ED25519`…
    public let algorithm: String
    /// The DER SubjectPublicKeyInfo (`i2d_PUBKEY`).
    public let spkiDER: [UInt8]
    /// The pin of this key.
    public let pin: SPKIPinValue

    /// The pin in bare base64, the value of `openssl … | openssl dgst -sha256 -binary | base64`.
    public var spkiPin: String {
        CertificateOpenSSL.base64(pin.digest)
    }

    /// Describes an `EVP_PKEY` (borrowed, not freed).
    init(evpKey key: OpaquePointer) throws(CertificateError) {
        guard let der = CertificateOpenSSL.spkiDER(key) else {
            throw CertificateOpenSSL.failure("cannot encode the public key as SubjectPublicKeyInfo")
        }
        guard let pin = SPKIPinValue(digest: CertificateOpenSSL.sha256(der)) else {
            throw CertificateOpenSSL.failure("cannot compute SHA-256")
        }
        self.spkiDER = der
        self.pin = pin
        self.algorithm = CertificatePublicKey.describe(key)
    }

    private static func describe(_ key: OpaquePointer) -> String {
        let name = EVP_PKEY_get0_type_name(key).map { String(cString: $0) } ?? "unknown"
        if name == "EC" {
            var buffer = [CChar](repeating: 0, count: 64)
            var length = 0
            if EVP_PKEY_get_group_name(key, &buffer, buffer.count, &length) == 1 {
                let group = String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
                return "EC \(group == "prime256v1" ? "P-256" : group)"
            }
            return "EC"
        }
        if name == "RSA" || name == "RSA-PSS" {
            return "\(name) \(EVP_PKEY_get_bits(key))"
        }
        return name
    }
}
