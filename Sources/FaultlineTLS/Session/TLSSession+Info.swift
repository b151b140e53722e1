private import COpenSSL

extension TLSSession {
    /// The application protocol both sides agreed on ("http/1.1", later "h2"), or nil.
    public var negotiatedALPN: String? {
        guard let ssl else { return nil }
        var data: UnsafePointer<UInt8>?
        var length: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &data, &length)
        guard let data, length > 0 else { return nil }
        return String(decoding: UnsafeBufferPointer(start: data, count: Int(length)), as: UTF8.self)
    }

    /// Server side: the name the client asked for with SNI. Client side: the name sent.
    public var serverName: String? {
        guard let ssl, let name = SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name) else { return nil }
        return String(cString: name)
    }

    /// The negotiated version as OpenSSL names it, e.g. "TLSv1.3".
    public var protocolVersion: String {
        guard let ssl, let name = SSL_get_version(ssl) else { return "" }
        return String(cString: name)
    }

    /// The negotiated cipher suite, e.g. "TLS_AES_256_GCM_SHA384"; empty before the handshake.
    public var cipher: String {
        guard let ssl, let cipher = SSL_get_current_cipher(ssl), let name = SSL_CIPHER_get_name(cipher) else {
            return ""
        }
        return String(cString: name)
    }

    /// The chain the peer served, leaf first, as DER (for `pins compute` and reports).
    public var peerChainDER: [[UInt8]] {
        guard let ssl else { return [] }
        var chain = Self.der(of: SSL_get_peer_cert_chain(ssl))
        // Server side OpenSSL leaves the client's leaf out of this list.
        if !isClient, let leaf = SSL_get1_peer_certificate(ssl) {
            defer { X509_free(leaf) }
            let leafDER = Self.der(of: leaf)
            if chain.first != leafDER { chain.insert(leafDER, at: 0) }
        }
        return chain
    }

    /// The chain as validated, leaf to trust anchor: what pins are checked against. Empty when
    /// verification did not succeed (or was not asked for and failed). A resumed session
    /// carries the chain validated by its original full handshake.
    public var verifiedChainDER: [[UInt8]] {
        if let cachedVerifiedChain { return cachedVerifiedChain }
        guard isHandshakeComplete else { return [] }
        let chain = validatedChain()
        cachedVerifiedChain = chain
        return chain
    }

    /// The validated chain as of now (callable mid-handshake, from the new-session callback).
    func validatedChain() -> [[UInt8]] {
        guard let ssl, SSL_get_verify_result(ssl) == X509_V_OK else { return [] }
        let chain = Self.der(of: SSL_get0_verified_chain(ssl))
        if chain.isEmpty, isClient, SSL_session_reused(ssl) == 1 { return offeredChain }
        return chain
    }

    /// Whether this connection resumed an earlier session (no full handshake).
    public var sessionReused: Bool {
        guard let ssl else { return false }
        return SSL_session_reused(ssl) == 1
    }

    /// Client side: nil when the chain verified, else why not (even when verification is off,
    /// OpenSSL still evaluates the chain, so `pins compute` can say why it is untrusted).
    public var verifyResult: String? {
        guard let ssl, isClient, isHandshakeComplete || failureReason != nil else { return nil }
        let result = Int32(SSL_get_verify_result(ssl))
        if result == X509_V_OK { return nil }
        return verificationFailureText(result)
    }

    static func der(of stack: OpaquePointer?) -> [[UInt8]] {
        guard let stack else { return [] }
        let count = fl_sk_X509_num(stack)
        guard count > 0 else { return [] }
        var result: [[UInt8]] = []
        result.reserveCapacity(Int(count))
        for index in 0..<count {
            guard let cert = fl_sk_X509_value(stack, index) else { continue }
            result.append(der(of: cert))
        }
        return result
    }

    static func der(of cert: OpaquePointer) -> [UInt8] {
        let length = i2d_X509(cert, nil)
        guard length > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        bytes.withUnsafeMutableBufferPointer { buffer in
            var cursor = buffer.baseAddress
            _ = i2d_X509(cert, &cursor)
        }
        return bytes
    }
}
