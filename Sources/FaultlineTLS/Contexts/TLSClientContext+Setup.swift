private import COpenSSL

extension TLSClientContext {
    static func configureTrust(_ ctx: OpaquePointer, system: Bool, caFile: String?) throws(TLSConfigurationError) {
        if system, SSL_CTX_set_default_verify_paths(ctx) != 1 {
            throw TLSConfigurationError(file: nil, "cannot load the system trust store: \(TLSOpenSSLErrors.drainedText())")
        }
        guard let caFile else { return }
        let certificates = try TLSPEMLoader.certificates(caFile, role: "CA file")
        defer { certificates.forEach { X509_free($0) } }
        guard let store = SSL_CTX_get_cert_store(ctx) else {
            throw TLSConfigurationError(file: caFile, "cannot use CA file \(caFile): no certificate store")
        }
        for certificate in certificates where X509_STORE_add_cert(store, certificate) != 1 {
            // A CA also present in the system store is not an error.
            let codes = TLSOpenSSLErrors.drain()
            if !codes.allSatisfy({ fl_ERR_GET_REASON($0) == UInt(X509_R_CERT_ALREADY_IN_HASH_TABLE) }) {
                throw TLSConfigurationError(file: caFile, "cannot use CA file \(caFile): \(codes.map(TLSOpenSSLErrors.reasonText).joined(separator: "; "))")
            }
        }
    }

    /// Keeps the session OpenSSL just made (TLS 1.2: during the handshake; TLS 1.3: when a
    /// ticket arrives after it) as the newest for the connection's host:port.
    static let newSessionCallback: @convention(c) (OpaquePointer?, OpaquePointer?) -> Int32 = { ssl, session in
        guard let session, SSL_SESSION_is_resumable(session) == 1,
              let owner = TLSSession.from(ssl), let cache = owner.cache, let key = owner.cacheKey else { return 0 }
        cache.store(session, verifiedChain: owner.validatedChain(), for: key)
        return 1  // the cache now owns this reference
    }

    /// Records which certificate failed and why, for the failure message; never changes the verdict.
    static let verifyCallback: @convention(c) (Int32, OpaquePointer?) -> Int32 = { ok, store in
        guard ok == 0, let store,
              let raw = X509_STORE_CTX_get_ex_data(store, SSL_get_ex_data_X509_STORE_CTX_idx()),
              let owner = TLSSession.from(OpaquePointer(raw)), owner.verifyFailureDetail == nil else { return ok }
        let depth = X509_STORE_CTX_get_error_depth(store)
        var subject = "?"
        if let cert = X509_STORE_CTX_get_current_cert(store), let name = X509_get_subject_name(cert) {
            var buffer = [CChar](repeating: 0, count: 256)
            if X509_NAME_oneline(name, &buffer, Int32(buffer.count)) != nil {
                subject = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        }
        owner.verifyFailureDetail = "\(subject) (depth \(depth))"
        return ok
    }
}
