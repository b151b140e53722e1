private import COpenSSL

/// A private key (an `EVP_PKEY`), generated here or loaded from PEM. Immutable after init,
/// hence Sendable.
public final class CertificateKey: @unchecked Sendable {
    /// The owned `EVP_PKEY*`.
    let evpKey: OpaquePointer
    /// The public half: SPKI DER and pin.
    public let publicKey: CertificatePublicKey

    /// Takes ownership of `key` (freed even when this throws).
    init(taking key: OpaquePointer) throws(CertificateError) {
        evpKey = key
        do {
            publicKey = try CertificatePublicKey(evpKey: key)
        } catch {
            EVP_PKEY_free(key)
            throw error
        }
    }

    deinit {
        EVP_PKEY_free(evpKey)
    }

    /// Generates a new key through OpenSSL's EVP key generation.
    public static func generate(_ algorithm: CertificateKeyAlgorithm = .ecP256) throws(CertificateError) -> CertificateKey {
        let name: String
        switch algorithm {
        case .ecP256: name = "EC"
        case .rsa: name = "RSA"
        }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, name, nil) else {
            throw CertificateOpenSSL.failure("cannot create a \(name) key generation context")
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_keygen_init(context) == 1 else { throw CertificateOpenSSL.failure("cannot start \(name) key generation") }
        switch algorithm {
        case .ecP256:
            guard EVP_PKEY_CTX_set_group_name(context, "P-256") == 1 else { throw CertificateOpenSSL.failure("P-256 unavailable") }
        case .rsa(let bits):
            guard bits >= 2048, bits <= 16384 else { throw CertificateError("RSA keys must have 2048...16384 bits, got \(bits)") }
            guard EVP_PKEY_CTX_set_rsa_keygen_bits(context, Int32(bits)) == 1 else {
                throw CertificateOpenSSL.failure("cannot set RSA key size \(bits)")
            }
        }
        var key: OpaquePointer?
        guard EVP_PKEY_generate(context, &key) == 1, let key else { throw CertificateOpenSSL.failure("\(name) key generation failed") }
        return try CertificateKey(taking: key)
    }

    /// Loads an unencrypted PEM private key (PKCS#8, RSA or EC) from `path`.
    public static func load(path: String) throws(CertificateError) -> CertificateKey {
        let bytes = try CertificateFile.read(path)
        do {
            return try parse(pem: bytes)
        } catch {
            throw CertificateError("\(path): \(error.message)")
        }
    }

    /// Parses an unencrypted PEM private key; an encrypted one is refused (never prompts).
    static func parse(pem bytes: [UInt8]) throws(CertificateError) -> CertificateKey {
        let key: OpaquePointer? = try CertificateOpenSSL.withReadBIO(bytes) { bio in
            PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in -1 }, nil)
        }
        guard let key else {
            throw CertificateOpenSSL.failure("no readable unencrypted private key")
        }
        return try CertificateKey(taking: key)
    }

    /// The private key as PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`), unencrypted.
    public var privateKeyPEM: String {
        CertificateOpenSSL.text { PEM_write_bio_PrivateKey($0, evpKey, nil, nil, 0, nil, nil) } ?? ""
    }

    /// The public key as PEM (`-----BEGIN PUBLIC KEY-----`).
    public var publicKeyPEM: String {
        CertificatePEM.encode(name: "PUBLIC KEY", der: publicKey.spkiDER)
    }

    /// Whether `certificate` carries this key's public half.
    public func matches(_ certificate: Certificate) -> Bool {
        X509_check_private_key(certificate.x509, evpKey) == 1
    }
}
