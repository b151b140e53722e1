public import FoundationEssentials
private import COpenSSL

/// An X.509 certificate, parsed once by OpenSSL. Immutable: the wrapped `X509` is never
/// changed after init and only read through OpenSSL's thread-safe accessors, hence Sendable.
public final class Certificate: @unchecked Sendable, Hashable, CustomStringConvertible {
    /// The owned `X509*`.
    let x509: OpaquePointer
    /// The DER encoding.
    public let derBytes: [UInt8]
    /// The subject in RFC 2253 form, e.g. `CN=leaf.example,O=Test`.
    public let subject: String
    /// The issuer in RFC 2253 form.
    public let issuer: String
    /// Start of the validity window.
    public let notBefore: Date
    /// End of the validity window.
    public let notAfter: Date
    /// Whether the certificate is issued by itself (subject = issuer and its key signs it).
    public let isSelfSigned: Bool
    /// The subject public key: SPKI DER and pin.
    public let publicKey: CertificatePublicKey

    /// Parses one DER certificate; trailing bytes are refused.
    public convenience init(derBytes: [UInt8]) throws(CertificateError) {
        let parsed: OpaquePointer? = derBytes.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            let x509 = d2i_X509(nil, &cursor, buffer.count)
            guard let x509, let start = buffer.baseAddress, let end = cursor, end - start == buffer.count else {
                if let x509 { X509_free(x509) }
                return nil
            }
            return x509
        }
        guard let parsed else {
            throw CertificateOpenSSL.failure("not a DER X.509 certificate (\(derBytes.count) bytes)")
        }
        try self.init(taking: parsed)
    }

    /// Takes ownership of `x509` (freed even when this throws).
    init(taking x509: OpaquePointer) throws(CertificateError) {
        self.x509 = x509
        guard let der = CertificateOpenSSL.der({ i2d_X509(x509, $0) }) else {
            X509_free(x509)
            throw CertificateOpenSSL.failure("cannot encode certificate")
        }
        guard let key = X509_get0_pubkey(x509) else {
            X509_free(x509)
            throw CertificateOpenSSL.failure("certificate has no readable public key")
        }
        do {
            publicKey = try CertificatePublicKey(evpKey: key)
        } catch {
            X509_free(x509)
            throw error
        }
        derBytes = der
        subject = CertificateOpenSSL.rfc2253(X509_get_subject_name(x509))
        issuer = CertificateOpenSSL.rfc2253(X509_get_issuer_name(x509))
        notBefore = CertificateTime.notBefore(of: x509) ?? Date(timeIntervalSince1970: 0)
        notAfter = CertificateTime.notAfter(of: x509) ?? Date(timeIntervalSince1970: 0)
        isSelfSigned = X509_self_signed(x509, 0) == 1
        _ = CertificateOpenSSL.drainErrors()
    }

    /// Borrows `x509` (taking a reference of our own).
    convenience init(borrowing x509: OpaquePointer) throws(CertificateError) {
        X509_up_ref(x509)
        try self.init(taking: x509)
    }

    deinit {
        X509_free(x509)
    }

    /// The DER SubjectPublicKeyInfo (`i2d_PUBKEY`), what pins hash.
    public var spkiDER: [UInt8] {
        publicKey.spkiDER
    }

    /// The pin of this certificate's key.
    public var pin: SPKIPinValue {
        publicKey.pin
    }

    /// base64(SHA-256(SPKI DER)), the bare pin.
    public var spkiPin: String {
        publicKey.spkiPin
    }

    /// SHA-256 of the whole certificate, colon-separated hex: a certificate fingerprint,
    /// shown to explain why it is not a pin (it changes on every renewal).
    public var sha256Fingerprint: String {
        CertificateOpenSSL.colonHex(CertificateOpenSSL.sha256(derBytes))
    }

    /// OpenSSL's old-style subject hash (`openssl x509 -subject_hash_old`) as 8 hex digits:
    /// the file name (`HASH.0`) Android's system CA store uses.
    public var subjectHashOld: String {
        let hash = UInt32(truncatingIfNeeded: X509_subject_name_hash_old(x509))
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }

    /// `notBefore` in ISO 8601 (UTC).
    public var notBeforeISO8601: String {
        CertificateTime.iso8601(notBefore)
    }

    /// `notAfter` in ISO 8601 (UTC).
    public var notAfterISO8601: String {
        CertificateTime.iso8601(notAfter)
    }

    /// Whether `date` is past `notAfter`.
    public func isExpired(at date: Date) -> Bool {
        date > notAfter
    }

    /// Whether `date` lies in the validity window.
    public func isValid(at date: Date) -> Bool {
        date >= notBefore && date <= notAfter
    }

    /// Whether basicConstraints (or a v1 self-signed root) makes this a CA.
    public var isCA: Bool {
        X509_check_ca(x509) > 0
    }

    /// The serial number in hex.
    public var serialNumber: String {
        guard let serial = X509_get0_serialNumber(x509), let number = ASN1_INTEGER_to_BN(serial, nil) else { return "" }
        defer { BN_free(number) }
        guard let hex = BN_bn2hex(number) else { return "" }
        defer { CRYPTO_free(hex, nil, 0) }
        return String(cString: hex)
    }

    /// The subjectAltName entries as `DNS:name`, `IP:address`, `email:…` or `URI:…`.
    public var subjectAlternativeNames: [String] {
        CertificateNames.subjectAlternativeNames(of: x509)
    }

    /// Whether this certificate's key signed `other` and its subject is `other`'s issuer.
    public func issued(_ other: Certificate) -> Bool {
        X509_check_issued(x509, other.x509) == X509_V_OK
    }

    /// `subject (pin)`.
    public var description: String {
        "\(subject) (sha256/\(spkiPin))"
    }

    /// Certificates are equal when their DER encodings are.
    public static func == (lhs: Certificate, rhs: Certificate) -> Bool {
        lhs.derBytes == rhs.derBytes
    }

    /// Hashes the DER encoding.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(derBytes)
    }
}
