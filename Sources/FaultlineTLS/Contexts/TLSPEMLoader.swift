private import COpenSSL

/// Turns certificate and key files into OpenSSL objects, explaining what is wrong with a file
/// that cannot be used (no certificate, encrypted key, swapped files, unknown format).
enum TLSPEMLoader {
    /// Every certificate in a PEM file (or a single DER certificate), in file order; the caller
    /// owns the references and must `X509_free` them.
    static func certificates(_ path: String, role: String) throws(TLSConfigurationError) -> [OpaquePointer] {
        let bytes = try TLSFileReader.read(path, role: role)
        var certificates: [OpaquePointer] = []
        bytes.withUnsafeBytes { raw in
            guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else { return }
            defer { BIO_free(bio) }
            while let cert = PEM_read_bio_X509(bio, nil, nil, nil) {
                certificates.append(cert)
            }
        }
        TLSOpenSSLErrors.clear()  // the loop always ends on a "no start line" error
        if certificates.isEmpty, let der = derCertificate(bytes) {
            certificates.append(der)
        }
        if certificates.isEmpty {
            let text = String(decoding: bytes.prefix(65536), as: UTF8.self)
            if text.contains("PRIVATE KEY-----") {
                throw TLSConfigurationError(file: path, "\(role) \(path) contains a private key but no certificate (were the certificate and key files swapped?)")
            }
            throw TLSConfigurationError(file: path, "\(role) \(path) contains no certificate (expected PEM blocks '-----BEGIN CERTIFICATE-----' or one DER certificate)")
        }
        return certificates
    }

    /// The private key of a PEM or DER file; the caller owns it (`EVP_PKEY_free`).
    static func privateKey(_ path: String) throws(TLSConfigurationError) -> OpaquePointer {
        let bytes = try TLSFileReader.read(path, role: "key file")
        let text = String(decoding: bytes.prefix(65536), as: UTF8.self)
        if text.contains("ENCRYPTED PRIVATE KEY-----") || text.contains("Proc-Type: 4,ENCRYPTED") {
            throw TLSConfigurationError(file: path, "key file \(path) is encrypted with a passphrase; Faultline needs an unencrypted key (decrypt it with: openssl pkey -in \(path) -out key-plain.pem)")
        }
        let key: OpaquePointer? = bytes.withUnsafeBytes { raw in
            guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else { return nil }
            defer { BIO_free(bio) }
            // The refusing callback keeps OpenSSL from prompting on the terminal.
            if let pem = PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in 0 }, nil) { return pem }
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
            var cursor: UnsafePointer<UInt8>? = base
            return d2i_AutoPrivateKey(nil, &cursor, raw.count)
        }
        TLSOpenSSLErrors.clear()
        guard let key else {
            if text.contains("BEGIN CERTIFICATE-----") {
                throw TLSConfigurationError(file: path, "key file \(path) contains a certificate but no private key (were the certificate and key files swapped?)")
            }
            if text.contains("PRIVATE KEY-----") {
                throw TLSConfigurationError(file: path, "key file \(path) holds a private key OpenSSL cannot parse (corrupt or unsupported algorithm)")
            }
            throw TLSConfigurationError(file: path, "key file \(path) is not in a supported format (expected a PEM '-----BEGIN PRIVATE KEY-----' block or a DER key)")
        }
        return key
    }

    private static func derCertificate(_ bytes: [UInt8]) -> OpaquePointer? {
        bytes.withUnsafeBytes { raw -> OpaquePointer? in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
            var cursor: UnsafePointer<UInt8>? = base
            let cert = d2i_X509(nil, &cursor, raw.count)
            TLSOpenSSLErrors.clear()
            return cert
        }
    }
}
