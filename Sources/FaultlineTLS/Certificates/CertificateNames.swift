private import COpenSSL
#if canImport(Glibc)
import Glibc
#endif

/// Reads subjectAltName entries out of a certificate.
enum CertificateNames {
    /// `DNS:…`, `IP:…`, `email:…`, `URI:…` for each entry of `x509`'s subjectAltName.
    static func subjectAlternativeNames(of x509: OpaquePointer) -> [String] {
        guard let raw = X509_get_ext_d2i(x509, NID_subject_alt_name, nil, nil) else { return [] }
        let stack = OpaquePointer(raw)
        defer { GENERAL_NAMES_free(stack) }
        var names: [String] = []
        for index in 0..<max(OPENSSL_sk_num(stack), 0) {
            guard let entry = OPENSSL_sk_value(stack, index) else { continue }
            let name = entry.assumingMemoryBound(to: GENERAL_NAME.self).pointee
            switch name.type {
            case GEN_DNS: names.append("DNS:\(string(name.d.dNSName))")
            case GEN_EMAIL: names.append("email:\(string(name.d.rfc822Name))")
            case GEN_URI: names.append("URI:\(string(name.d.uniformResourceIdentifier))")
            case GEN_IPADD: names.append("IP:\(address(name.d.iPAddress))")
            default: continue
            }
        }
        return names
    }

    private static func bytes(_ value: UnsafeMutablePointer<ASN1_STRING>?) -> [UInt8] {
        guard let value, let data = ASN1_STRING_get0_data(value) else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: Int(ASN1_STRING_length(value))))
    }

    private static func string(_ value: UnsafeMutablePointer<ASN1_STRING>?) -> String {
        String(decoding: bytes(value), as: UTF8.self)
    }

    private static func address(_ value: UnsafeMutablePointer<ASN1_STRING>?) -> String {
        let raw = bytes(value)
        let family: Int32
        switch raw.count {
        case 4: family = AF_INET
        case 16: family = AF_INET6
        default: return raw.map { String($0) }.joined(separator: ".")
        }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(family, raw, &text, socklen_t(text.count)) != nil else { return "" }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
