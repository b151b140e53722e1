internal import FoundationEssentials
private import COpenSSL

/// Small helpers over OpenSSL shared by the certificate and pin code: memory BIOs, DER
/// encoding, SHA-256, base64 and the error queue. Nothing here is hand-written crypto.
enum CertificateOpenSSL {
    /// Drains OpenSSL's error queue of this thread and returns its last reason, if any.
    static func drainErrors() -> String? {
        var last: String?
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            last = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return last
    }

    /// `message`, followed by OpenSSL's last reason when it has one.
    static func failure(_ message: String) -> CertificateError {
        if let reason = drainErrors() {
            return CertificateError("\(message) (\(reason))")
        }
        return CertificateError(message)
    }

    /// Runs `body` with a read-only memory BIO over `bytes`.
    static func withReadBIO<T>(_ bytes: [UInt8], _ body: (OpaquePointer) throws(CertificateError) -> T) throws(CertificateError) -> T {
        let result: Result<T, CertificateError> = bytes.withUnsafeBytes { raw in
            guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else {
                return .failure(failure("cannot allocate a memory BIO"))
            }
            defer { BIO_free(bio) }
            do throws(CertificateError) {
                return .success(try body(bio))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Runs `write` with an empty writable memory BIO and returns what it wrote, or nil when
    /// `write` reports failure (a result of 0 or less).
    static func written(_ write: (OpaquePointer) -> Int32) -> [UInt8]? {
        guard let bio = BIO_new(BIO_s_mem()) else { return nil }
        defer { BIO_free(bio) }
        guard write(bio) > 0 else { return nil }
        let pending = Int(BIO_ctrl_pending(bio))
        var bytes = [UInt8](repeating: 0, count: pending)
        let read = bytes.withUnsafeMutableBytes { BIO_read(bio, $0.baseAddress, Int32($0.count)) }
        guard read >= 0 else { return nil }
        return Array(bytes.prefix(Int(read)))
    }

    /// Text written by `write` into a memory BIO, or nil on failure.
    static func text(_ write: (OpaquePointer) -> Int32) -> String? {
        written(write).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The DER produced by an OpenSSL `i2d_…` function, called once for the length and once
    /// to fill the buffer; nil when encoding fails.
    static func der(_ encode: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32) -> [UInt8]? {
        let length = encode(nil)
        guard length > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        let written = bytes.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor = buffer.baseAddress
            return encode(&cursor)
        }
        guard written == length else { return nil }
        return bytes
    }

    /// SHA-256 of `bytes` through EVP.
    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { raw in
            EVP_Digest(raw.baseAddress, raw.count, &digest, &length, EVP_sha256(), nil)
        }
        guard ok == 1 else { return [] }
        return Array(digest.prefix(Int(length)))
    }

    /// Standard base64 with padding, through OpenSSL's EVP encoder.
    static func base64(_ bytes: [UInt8]) -> String {
        var output = [UInt8](repeating: 0, count: 4 * ((bytes.count + 2) / 3) + 1)
        let count = EVP_EncodeBlock(&output, bytes, Int32(bytes.count))
        return String(decoding: output.prefix(Int(max(count, 0))), as: UTF8.self)
    }

    /// Upper-case hex bytes joined by colons, as `openssl x509 -fingerprint` prints them.
    static func colonHex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var text = [UInt8]()
        text.reserveCapacity(bytes.count * 3)
        for (index, byte) in bytes.enumerated() {
            if index > 0 { text.append(UInt8(ascii: ":")) }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// An X509_NAME as an RFC 2253 string (most significant RDN last), UTF-8 kept as is.
    static func rfc2253(_ name: OpaquePointer?) -> String {
        guard let name else { return "" }
        // XN_FLAG_RFC2253 without ASN1_STRFLGS_ESC_MSB (UTF-8 shown as is), spelled out
        // because the composite macro does not import into Swift.
        let strings = UInt(ASN1_STRFLGS_ESC_2253) | UInt(ASN1_STRFLGS_ESC_CTRL) | UInt(ASN1_STRFLGS_UTF8_CONVERT)
            | UInt(ASN1_STRFLGS_DUMP_UNKNOWN) | UInt(ASN1_STRFLGS_DUMP_DER)
        let flags = strings | UInt(XN_FLAG_SEP_COMMA_PLUS) | UInt(XN_FLAG_DN_REV) | UInt(XN_FLAG_FN_SN)
            | UInt(XN_FLAG_DUMP_UNKNOWN_FIELDS)
        return text { bio in X509_NAME_print_ex(bio, name, 0, flags) >= 0 ? 1 : 0 } ?? ""
    }

    /// The SPKI DER of a public key (`i2d_PUBKEY`).
    static func spkiDER(_ key: OpaquePointer) -> [UInt8]? {
        der { i2d_PUBKEY(key, $0) }
    }
}
