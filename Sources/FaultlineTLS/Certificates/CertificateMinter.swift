internal import FoundationEssentials
private import COpenSSL
#if canImport(Glibc)
import Glibc
#endif

/// Mints keys and certificates through the OpenSSL C API (never the openssl CLI): a
/// self-signed development CA, intermediates, and leaf certificates with DNS and IP names.
public enum CertificateMinter {
    /// A self-signed root CA (basicConstraints CA:TRUE, keyUsage keyCertSign and cRLSign).
    public static func rootCA(commonName: String, organization: String = "Faultline development",
                              key: CertificateKey, validity: CertificateValidity) throws(CertificateError) -> CertificateAuthority {
        let certificate = try issue(subject: [("O", organization), ("CN", commonName)], key: key, issuer: nil, validity: validity,
                                    extensions: caExtensions(pathLength: nil))
        return try CertificateAuthority(certificate: certificate, key: key)
    }

    /// An intermediate CA signed by `issuer` (pathlen 0: it signs leaves only).
    public static func intermediateCA(commonName: String, organization: String = "Faultline development",
                                      key: CertificateKey, issuer: CertificateAuthority,
                                      validity: CertificateValidity) throws(CertificateError) -> CertificateAuthority {
        let certificate = try issue(subject: [("O", organization), ("CN", commonName)], key: key, issuer: issuer,
                                    validity: validity, extensions: caExtensions(pathLength: 0))
        return try CertificateAuthority(certificate: certificate, key: key, intermediates: [certificate] + issuer.intermediates)
    }

    /// A TLS server certificate for `names` (DNS names and IP addresses, the first also its
    /// CN) signed by `issuer`, with serverAuth extended key usage.
    public static func leaf(names: [String], key: CertificateKey, issuer: CertificateAuthority,
                            validity: CertificateValidity) throws(CertificateError) -> CertificateLeaf {
        guard let first = names.first else { throw CertificateError("a leaf certificate needs at least one name") }
        let alternativeNames = try names.map { name throws(CertificateError) -> String in
            guard !name.isEmpty, !name.contains(","), !name.contains(" ") else {
                throw CertificateError("invalid certificate name \"\(name)\"")
            }
            return (isIPAddress(name) ? "IP:" : "DNS:") + name
        }
        let usage = key.publicKey.algorithm.hasPrefix("RSA") ? "critical,digitalSignature,keyEncipherment" : "critical,digitalSignature"
        let extensions: [(Int32, String)] = [
            (NID_basic_constraints, "critical,CA:FALSE"),
            (NID_key_usage, usage),
            (NID_ext_key_usage, "serverAuth"),
            (NID_subject_alt_name, alternativeNames.joined(separator: ",")),
            (NID_subject_key_identifier, "hash"),
            (NID_authority_key_identifier, "keyid:always"),
        ]
        let certificate = try issue(subject: [("O", "Faultline development"), ("CN", first)], key: key, issuer: issuer,
                                    validity: validity, extensions: extensions)
        return CertificateLeaf(certificate: certificate, key: key, chain: [certificate] + issuer.intermediates)
    }

    /// Whether `name` is an IPv4 or IPv6 literal.
    static func isIPAddress(_ name: String) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 16)
        return inet_pton(AF_INET, name, &buffer) == 1 || inet_pton(AF_INET6, name, &buffer) == 1
    }

    private static func caExtensions(pathLength: Int?) -> [(Int32, String)] {
        var extensions: [(Int32, String)] = [
            (NID_basic_constraints, "critical,CA:TRUE" + (pathLength.map { ",pathlen:\($0)" } ?? "")),
            (NID_key_usage, "critical,keyCertSign,cRLSign,digitalSignature"),
            (NID_subject_key_identifier, "hash"),
        ]
        if pathLength != nil { extensions.append((NID_authority_key_identifier, "keyid:always")) }
        return extensions
    }

    /// Builds, extends and signs one certificate; `issuer` nil means self-signed.
    private static func issue(subject: [(String, String)], key: CertificateKey, issuer: CertificateAuthority?,
                              validity: CertificateValidity,
                              extensions: [(Int32, String)]) throws(CertificateError) -> Certificate {
        guard validity.notBefore < validity.notAfter else { throw CertificateError("notBefore must precede notAfter") }
        guard let x509 = X509_new() else { throw CertificateOpenSSL.failure("cannot allocate a certificate") }
        let certificate: Certificate
        do {
            try fill(x509, subject: subject, key: key, issuer: issuer, validity: validity, extensions: extensions)
            certificate = try Certificate(borrowing: x509)
        } catch {
            X509_free(x509)
            throw error
        }
        X509_free(x509)
        return certificate
    }

    private static func fill(_ x509: OpaquePointer, subject: [(String, String)], key: CertificateKey,
                             issuer: CertificateAuthority?, validity: CertificateValidity,
                             extensions: [(Int32, String)]) throws(CertificateError) {
        guard X509_set_version(x509, 2) == 1 else { throw CertificateOpenSSL.failure("cannot set version") }
        try setSerial(x509)
        guard ASN1_TIME_set(X509_getm_notBefore(x509), time_t(validity.notBefore.timeIntervalSince1970)) != nil,
              ASN1_TIME_set(X509_getm_notAfter(x509), time_t(validity.notAfter.timeIntervalSince1970)) != nil
        else { throw CertificateOpenSSL.failure("cannot set the validity window") }
        guard let name = X509_NAME_new() else { throw CertificateOpenSSL.failure("cannot allocate a name") }
        defer { X509_NAME_free(name) }
        for (field, value) in subject {
            guard X509_NAME_add_entry_by_txt(name, field, MBSTRING_UTF8, value, -1, -1, 0) == 1 else {
                throw CertificateOpenSSL.failure("invalid subject \(field)=\(value)")
            }
        }
        guard X509_set_subject_name(x509, name) == 1,
              X509_set_issuer_name(x509, issuer.map { X509_get_subject_name($0.certificate.x509) } ?? name) == 1,
              X509_set_pubkey(x509, key.evpKey) == 1
        else { throw CertificateOpenSSL.failure("cannot set names or key") }
        var context = X509V3_CTX()
        X509V3_set_ctx(&context, issuer?.certificate.x509 ?? x509, x509, nil, nil, 0)
        guard X509V3_set_issuer_pkey(&context, issuer?.key.evpKey ?? key.evpKey) == 1 else {
            throw CertificateOpenSSL.failure("cannot set the issuer key")
        }
        for (nid, value) in extensions {
            guard let item = X509V3_EXT_nconf_nid(nil, &context, nid, value) else {
                throw CertificateOpenSSL.failure("invalid extension \(value)")
            }
            defer { X509_EXTENSION_free(item) }
            guard X509_add_ext(x509, item, -1) == 1 else { throw CertificateOpenSSL.failure("cannot add extension \(value)") }
        }
        let signer = issuer?.key.evpKey ?? key.evpKey
        guard X509_sign(x509, signer, EVP_sha256()) > 0 else { throw CertificateOpenSSL.failure("signing failed") }
    }

    /// A random positive 127-bit serial number.
    private static func setSerial(_ x509: OpaquePointer) throws(CertificateError) {
        guard let number = BN_new() else { throw CertificateOpenSSL.failure("cannot allocate serial") }
        defer { BN_free(number) }
        guard BN_rand(number, 127, BN_RAND_TOP_ONE, BN_RAND_BOTTOM_ANY) == 1 else { throw CertificateOpenSSL.failure("no randomness") }
        guard BN_to_ASN1_INTEGER(number, X509_get_serialNumber(x509)) != nil else {
            throw CertificateOpenSSL.failure("cannot set serial number")
        }
    }
}
