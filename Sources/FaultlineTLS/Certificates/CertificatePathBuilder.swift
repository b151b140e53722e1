private import COpenSSL

/// Builds the verified path of a chain read from a file, as a client would: OpenSSL's
/// verification from the leaf, the other certificates as untrusted intermediates, up to an
/// anchor of `caFile` or of the system store. Validity dates are not checked (a candidate
/// chain may not be valid yet, and pin rules only narrow a chain that is trusted), and no
/// host name is checked.
public enum CertificatePathBuilder {
    /// The path leaf first, ending at the trust anchor.
    /// - Throws: `CertificateError` naming why OpenSSL found no path (e.g. "unable to get
    ///   local issuer certificate") or why `caFile` could not be loaded.
    public static func verifiedPath(_ chain: [Certificate], caFile: String?) throws(CertificateError) -> [Certificate] {
        guard let leaf = chain.first else { throw CertificateError("the chain holds no certificate") }
        guard let store = X509_STORE_new() else { throw CertificateOpenSSL.failure("cannot create a certificate store") }
        defer { X509_STORE_free(store) }
        if let caFile {
            guard X509_STORE_load_file(store, caFile) == 1 else {
                throw CertificateOpenSSL.failure("\(caFile): cannot load CA certificates")
            }
        } else if X509_STORE_set_default_paths(store) != 1 {
            throw CertificateOpenSSL.failure("cannot load the system trust store")
        }
        X509_STORE_set_flags(store, UInt(X509_V_FLAG_NO_CHECK_TIME))
        guard let untrusted = OPENSSL_sk_new_null() else { throw CertificateOpenSSL.failure("cannot allocate a stack") }
        defer { OPENSSL_sk_free(untrusted) }
        for certificate in chain.dropFirst() {
            guard OPENSSL_sk_push(untrusted, UnsafeRawPointer(certificate.x509)) > 0 else {
                throw CertificateOpenSSL.failure("cannot build the untrusted list")
            }
        }
        guard let context = X509_STORE_CTX_new() else { throw CertificateOpenSSL.failure("cannot create a verification context") }
        defer { X509_STORE_CTX_free(context) }
        guard X509_STORE_CTX_init(context, store, leaf.x509, untrusted) == 1 else {
            throw CertificateOpenSSL.failure("cannot start verification")
        }
        guard X509_verify_cert(context) == 1 else {
            let code = X509_STORE_CTX_get_error(context)
            let why = X509_verify_cert_error_string(Int(code)).map { String(cString: $0) } ?? "error \(code)"
            _ = CertificateOpenSSL.drainErrors()
            throw CertificateError("no verified path (\(why))")
        }
        guard let path = X509_STORE_CTX_get0_chain(context) else { throw CertificateOpenSSL.failure("no verified path") }
        var result: [Certificate] = []
        for index in 0..<fl_sk_X509_num(path) {
            guard let x509 = fl_sk_X509_value(path, index) else { continue }
            result.append(try Certificate(borrowing: x509))
        }
        return result
    }
}
