private import COpenSSL

extension TLSSession {
    /// Words for a failed handshake: verification first (the most common and most
    /// actionable), then "not TLS at all", then version/cipher mismatches and peer alerts.
    func handshakeFailureReason(_ sslError: Int32) -> String {
        let codes = TLSOpenSSLErrors.drain()
        if let ssl, isClient, verifiesPeer {
            let result = SSL_get_verify_result(ssl)
            if result != X509_V_OK { return verificationFailureText(Int32(result)) }
        }
        for code in codes where fl_ERR_GET_LIB(code) == UInt(ERR_LIB_SSL) {
            if let text = describe(reason: Int32(fl_ERR_GET_REASON(code))) {
                return text + peerSuffix
            }
        }
        if sslError == SSL_ERROR_SYSCALL, codes.isEmpty {
            return "the peer closed the connection during the TLS handshake" + peerSuffix
        }
        let detail = codes.isEmpty ? "unknown error" : codes.map(TLSOpenSSLErrors.reasonText).joined(separator: "; ")
        return "TLS handshake failed: \(detail)" + peerSuffix
    }

    /// Words for a failure after the handshake (a bad record, a fatal alert).
    func dataFailureReason(_ sslError: Int32, action: String) -> String {
        let codes = TLSOpenSSLErrors.drain()
        for code in codes where fl_ERR_GET_LIB(code) == UInt(ERR_LIB_SSL) {
            let reason = Int32(fl_ERR_GET_REASON(code))
            if reason == SSL_R_UNEXPECTED_EOF_WHILE_READING {
                return "the peer closed the connection without a TLS close_notify" + peerSuffix
            }
            if let alert = alertText(reason: reason) {
                return "TLS connection aborted: peer sent alert '\(alert)'" + peerSuffix
            }
        }
        if sslError == SSL_ERROR_SYSCALL, codes.isEmpty {
            return "the peer closed the connection without a TLS close_notify" + peerSuffix
        }
        let detail = codes.isEmpty ? "unknown error" : codes.map(TLSOpenSSLErrors.reasonText).joined(separator: "; ")
        return "TLS error while \(action): \(detail)" + peerSuffix
    }

    /// "certificate verify failed: <why> (peer …, expected host …)".
    func verificationFailureText(_ result: Int32) -> String {
        var why: String
        switch result {
        case X509_V_ERR_HOSTNAME_MISMATCH:
            why = "hostname mismatch (the certificate is not valid for \(expectedHost ?? "the requested name"))"
        case X509_V_ERR_IP_ADDRESS_MISMATCH:
            why = "IP address mismatch (the certificate is not valid for \(expectedHost ?? "the requested address"))"
        default:
            why = X509_verify_cert_error_string(Int(result)).map { String(cString: $0) } ?? "error \(result)"
            if let detail = verifyFailureDetail { why += " for \(detail)" }
        }
        var context: [String] = []
        if let peerDescription { context.append("peer \(peerDescription)") }
        if let expectedHost { context.append("expected host \(expectedHost)") }
        let suffix = context.isEmpty ? "" : " (" + context.joined(separator: ", ") + ")"
        return "certificate verify failed: \(why)\(suffix)"
    }

    private var peerSuffix: String {
        peerDescription.map { " (peer \($0))" } ?? ""
    }

    private func describe(reason: Int32) -> String? {
        switch reason {
        case SSL_R_HTTP_REQUEST, SSL_R_HTTPS_PROXY_REQUEST:
            return "peer did not speak TLS (received plain HTTP?)"
        case SSL_R_WRONG_VERSION_NUMBER, SSL_R_PACKET_LENGTH_TOO_LONG,
             SSL_R_UNKNOWN_PROTOCOL, SSL_R_LENGTH_TOO_SHORT:
            if Self.looksLikeHTTP(firstBytes) { return "peer did not speak TLS (received plain HTTP?)" }
            if Self.looksLikeTLSRecord(firstBytes) {
                return "handshake failure: protocol version (the peer uses a TLS version this side does not accept)"
            }
            return "peer did not speak TLS (first bytes: \(Self.hex(firstBytes)))"
        case SSL_R_NO_SHARED_CIPHER:
            return "handshake failure: no shared cipher (the peer offered no cipher suite this side accepts)"
        case SSL_R_UNSUPPORTED_PROTOCOL, SSL_R_NO_PROTOCOLS_AVAILABLE, SSL_R_VERSION_TOO_LOW,
             SSL_R_VERSION_TOO_HIGH:
            return "handshake failure: protocol version (the peer offered only versions outside TLS 1.2–1.3)"
        case SSL_R_TLSV1_ALERT_PROTOCOL_VERSION:
            return "handshake failure: protocol version (the peer refused every TLS version this side offered)"
        case SSL_R_SSLV3_ALERT_HANDSHAKE_FAILURE:
            return "handshake failure: no shared cipher / protocol version (peer sent alert 'handshake failure')"
        case SSL_R_CERTIFICATE_VERIFY_FAILED:
            return "certificate verify failed"
        case SSL_R_UNEXPECTED_EOF_WHILE_READING:
            return "the peer closed the connection during the TLS handshake"
        default:
            if let alert = alertText(reason: reason) {
                return "TLS handshake failed: peer sent alert '\(alert)'"
                    + (reason - SSL_AD_REASON_OFFSET == SSL_AD_UNKNOWN_CA || reason - SSL_AD_REASON_OFFSET == SSL_AD_BAD_CERTIFICATE
                        ? " (the peer does not trust this side's certificate)" : "")
            }
            return nil
        }
    }

    private func alertText(reason: Int32) -> String? {
        guard reason > SSL_AD_REASON_OFFSET, reason < SSL_AD_REASON_OFFSET + 256 else { return nil }
        guard let text = SSL_alert_desc_string_long(reason - SSL_AD_REASON_OFFSET) else { return nil }
        return String(cString: text)
    }

    /// What a plain-HTTP client on a TLS port gets (as nginx does): a 400 it can read,
    /// saying to use https. Nothing for a client session or any other failure.
    public func clearTextReplyAfterFailure() -> [UInt8]? {
        guard !isClient, case .failed = state, Self.looksLikeHTTP(firstBytes) else { return nil }
        let body = "This port speaks HTTPS: the plain HTTP request was refused. Use an https:// URL.\n"
        return Array(("HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body).utf8)
    }

    static func looksLikeHTTP(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self)
        let starts = ["GET ", "POST", "PUT ", "HEAD", "DELE", "OPTI", "PATC", "CONN", "TRAC", "PRI ", "HTTP/"]
        return starts.contains { text.hasPrefix($0) }
    }

    static func looksLikeTLSRecord(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 2 && (20...23).contains(bytes[0]) && bytes[1] == 3
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined(separator: " ")
    }
}
