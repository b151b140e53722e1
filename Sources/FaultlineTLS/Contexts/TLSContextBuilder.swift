private import COpenSSL

/// The settings every Faultline SSL_CTX shares, client or server.
enum TLSContextBuilder {
    /// Server TLS 1.2 suites: forward secret AEAD only (Mozilla "intermediate" minus DHE).
    static let serverCipherList = "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:"
        + "ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:"
        + "ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305"
    /// Client TLS 1.2 suites: OpenSSL's defaults minus the weak ones, since staging servers vary.
    static let clientCipherList = "DEFAULT:!aNULL:!eNULL:!MD5:!3DES:!DES:!RC4:!IDEA:!SEED:!PSK:!SRP:!aDSS"

    static func makeContext(server: Bool, minimum: TLSProtocolVersion,
                            maximum: TLSProtocolVersion?) throws(TLSConfigurationError) -> OpaquePointer {
        TLSOpenSSLErrors.clear()
        guard let method = server ? TLS_server_method() : TLS_client_method(), let ctx = SSL_CTX_new(method) else {
            throw TLSConfigurationError(file: nil, "could not create a TLS context: \(TLSOpenSSLErrors.drainedText())")
        }
        var ok = fl_SSL_CTX_set_min_proto_version(ctx, minimum.openSSLValue) == 1
        if let maximum { ok = ok && fl_SSL_CTX_set_max_proto_version(ctx, maximum.openSSLValue) == 1 }
        var options = fl_SSL_OP_NO_RENEGOTIATION() | fl_SSL_OP_NO_COMPRESSION()
        if server { options |= fl_SSL_OP_CIPHER_SERVER_PREFERENCE() }
        _ = SSL_CTX_set_options(ctx, options)
        ok = ok && SSL_CTX_set_cipher_list(ctx, server ? serverCipherList : clientCipherList) == 1
        // The session's BIO never refuses a write, but a moving buffer is harmless and avoids
        // a spurious "bad write retry" if a caller ever passes a different array on retry.
        _ = fl_SSL_CTX_set_mode(ctx, Int(SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER))
        // Read-ahead: the record layer takes everything received in one BIO read instead of a
        // header read and a body read per record (nginx sets it too).
        _ = fl_SSL_CTX_set_read_ahead(ctx, 1)
        guard ok else {
            SSL_CTX_free(ctx)
            throw TLSConfigurationError(file: nil, "could not configure a TLS context: \(TLSOpenSSLErrors.drainedText())")
        }
        return ctx
    }

    /// The ALPN wire format: each name prefixed by its length.
    static func alpnWire(_ protocols: [String]) throws(TLSConfigurationError) -> [UInt8] {
        var wire: [UInt8] = []
        for name in protocols {
            let bytes = Array(name.utf8)
            guard (1...255).contains(bytes.count) else {
                throw TLSConfigurationError(file: nil, "ALPN protocol name '\(name)' must be 1 to 255 bytes long")
            }
            wire.append(UInt8(bytes.count))
            wire.append(contentsOf: bytes)
        }
        return wire
    }

    /// Installs the leaf, its chain and key, and checks that they belong together.
    static func useCertificate(_ files: TLSCertificateFiles, in ctx: OpaquePointer) throws(TLSConfigurationError) {
        let certificates = try TLSPEMLoader.certificates(files.certificateChainFile, role: "certificate file")
        defer { certificates.forEach { X509_free($0) } }
        let key = try TLSPEMLoader.privateKey(files.privateKeyFile)
        defer { EVP_PKEY_free(key) }
        TLSOpenSSLErrors.clear()
        guard let leaf = certificates.first, SSL_CTX_use_certificate(ctx, leaf) == 1 else {
            throw TLSConfigurationError(file: files.certificateChainFile,
                                        "certificate file \(files.certificateChainFile) cannot be used: \(TLSOpenSSLErrors.drainedText())")
        }
        for intermediate in certificates.dropFirst() where fl_SSL_CTX_add1_chain_cert(ctx, intermediate) != 1 {
            throw TLSConfigurationError(file: files.certificateChainFile,
                                        "certificate file \(files.certificateChainFile): cannot add chain certificate: \(TLSOpenSSLErrors.drainedText())")
        }
        guard SSL_CTX_use_PrivateKey(ctx, key) == 1, SSL_CTX_check_private_key(ctx) == 1 else {
            TLSOpenSSLErrors.clear()
            throw TLSConfigurationError(file: files.privateKeyFile,
                                        "key \(files.privateKeyFile) does not match certificate \(files.certificateChainFile)")
        }
    }
}
