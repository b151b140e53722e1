private import COpenSSL

/// Reads any input of `faultline pins compute FILE`: a PEM or DER certificate, a PEM chain,
/// a PEM or DER private key (RSA, EC, Ed25519…), a public key, or a certificate request.
public enum CertificateInspector {
    /// Inspects the file at `path`; errors name the file and what it holds instead.
    public static func inspect(path: String) throws(CertificateError) -> InspectedInput {
        let bytes = try CertificateFile.read(path)
        do {
            return try inspect(bytes, path: path)
        } catch {
            throw CertificateError("\(path): \(error.message)")
        }
    }

    /// Inspects `bytes`, reported as coming from `path`.
    public static func inspect(_ bytes: [UInt8], path: String) throws(CertificateError) -> InspectedInput {
        guard !bytes.isEmpty else { throw CertificateError("empty file") }
        guard CertificatePEM.looksLikePEM(bytes) else { return try inspectDER(bytes, path: path) }
        let blocks = try CertificatePEM.blocks(in: bytes)
        guard !blocks.isEmpty else { throw CertificateError("a BEGIN line but no readable PEM block") }
        if blocks.contains(where: { Certificate.pemLabels.contains($0.name) }) {
            let certificates = try Certificate.parseAll(bytes)
            return InspectedInput(path: path, kind: certificates.count == 1 ? .certificate : .chain, encoding: "PEM",
                                  certificates: certificates, publicKey: nil, requestSubject: nil)
        }
        for block in blocks {
            if let input = try inspect(block, allBytes: bytes, path: path) { return input }
        }
        throw CertificateError("no certificate, key or certificate request found (PEM blocks: "
            + blocks.map(\.name).joined(separator: ", ") + ")")
    }

    private static func inspect(_ block: CertificatePEM.Block, allBytes: [UInt8], path: String) throws(CertificateError) -> InspectedInput? {
        switch block.name {
        case "ENCRYPTED PRIVATE KEY":
            throw encrypted
        case let name where name.hasSuffix("PRIVATE KEY"):
            if block.encrypted { throw encrypted }
            let key = try CertificateKey.parse(pem: allBytes)
            return keyInput(.privateKey, key.publicKey, path: path, encoding: "PEM")
        case "PUBLIC KEY":
            return keyInput(.publicKey, try publicKey(spki: block.der), path: path, encoding: "PEM")
        case "RSA PUBLIC KEY":
            return keyInput(.publicKey, try rsaPublicKey(pkcs1: block.der), path: path, encoding: "PEM")
        case "CERTIFICATE REQUEST", "NEW CERTIFICATE REQUEST":
            return try request(block.der, path: path, encoding: "PEM")
        default:
            return nil
        }
    }

    private static var encrypted: CertificateError {
        CertificateError("encrypted private key: decrypt it first (openssl pkey -in KEY -out plain.pem) "
            + "or give the certificate instead")
    }

    private static func inspectDER(_ bytes: [UInt8], path: String) throws(CertificateError) -> InspectedInput {
        if let certificate = try? Certificate(derBytes: bytes) {
            return InspectedInput(path: path, kind: .certificate, encoding: "DER", certificates: [certificate],
                                  publicKey: nil, requestSubject: nil)
        }
        if let input = try? request(bytes, path: path, encoding: "DER") { return input }
        if let key = try? publicKey(spki: bytes) { return keyInput(.publicKey, key, path: path, encoding: "DER") }
        let privateKey: OpaquePointer? = bytes.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return d2i_AutoPrivateKey(nil, &cursor, buffer.count)
        }
        if let privateKey {
            let key = try CertificateKey(taking: privateKey)
            return keyInput(.privateKey, key.publicKey, path: path, encoding: "DER")
        }
        _ = CertificateOpenSSL.drainErrors()
        throw CertificateError("not PEM, and not a DER certificate, certificate request, public or private key (\(bytes.count) bytes)")
    }

    private static func keyInput(_ kind: InspectedInput.Kind, _ key: CertificatePublicKey, path: String,
                                 encoding: String) -> InspectedInput {
        InspectedInput(path: path, kind: kind, encoding: encoding, certificates: [], publicKey: key, requestSubject: nil)
    }

    private static func publicKey(spki der: [UInt8]) throws(CertificateError) -> CertificatePublicKey {
        let key: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return d2i_PUBKEY(nil, &cursor, buffer.count)
        }
        guard let key else { throw CertificateOpenSSL.failure("PUBLIC KEY block is not a valid SubjectPublicKeyInfo") }
        defer { EVP_PKEY_free(key) }
        return try CertificatePublicKey(evpKey: key)
    }

    private static func rsaPublicKey(pkcs1 der: [UInt8]) throws(CertificateError) -> CertificatePublicKey {
        let key: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return d2i_PublicKey(EVP_PKEY_RSA, nil, &cursor, buffer.count)
        }
        guard let key else { throw CertificateOpenSSL.failure("RSA PUBLIC KEY block is not a valid PKCS#1 key") }
        defer { EVP_PKEY_free(key) }
        return try CertificatePublicKey(evpKey: key)
    }

    private static func request(_ der: [UInt8], path: String, encoding: String) throws(CertificateError) -> InspectedInput {
        let request: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return d2i_X509_REQ(nil, &cursor, buffer.count)
        }
        guard let request else { throw CertificateOpenSSL.failure("CERTIFICATE REQUEST block is not a valid PKCS#10 request") }
        defer { X509_REQ_free(request) }
        guard let key = X509_REQ_get0_pubkey(request) else { throw CertificateOpenSSL.failure("certificate request has no readable key") }
        let subject = CertificateOpenSSL.rfc2253(X509_REQ_get_subject_name(request))
        return InspectedInput(path: path, kind: .certificateRequest, encoding: encoding, certificates: [],
                              publicKey: try CertificatePublicKey(evpKey: key), requestSubject: subject)
    }
}
