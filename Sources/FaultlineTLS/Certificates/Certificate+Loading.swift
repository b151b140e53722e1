private import COpenSSL

extension Certificate {
    /// PEM labels that hold a certificate.
    static let pemLabels: Set<String> = ["CERTIFICATE", "TRUSTED CERTIFICATE", "X509 CERTIFICATE"]

    /// Every certificate of a PEM file (one or many, other blocks skipped) or the single
    /// certificate of a DER file, in file order. Throws when there is none, naming the file
    /// and what it holds instead.
    public static func loadAll(path: String) throws(CertificateError) -> [Certificate] {
        let bytes = try CertificateFile.read(path)
        do {
            return try parseAll(bytes)
        } catch {
            throw CertificateError("\(path): \(error.message)")
        }
    }

    /// Every certificate in `bytes`, PEM or DER.
    public static func parseAll(_ bytes: [UInt8]) throws(CertificateError) -> [Certificate] {
        guard !bytes.isEmpty else { throw CertificateError("empty file, expected a PEM or DER certificate") }
        guard CertificatePEM.looksLikePEM(bytes) else {
            do {
                return [try Certificate(derBytes: bytes)]
            } catch {
                throw CertificateError("not PEM and not a DER certificate (\(bytes.count) bytes)")
            }
        }
        let blocks = try CertificatePEM.blocks(in: bytes)
        var certificates: [Certificate] = []
        for (index, block) in blocks.enumerated() where pemLabels.contains(block.name) {
            certificates.append(try certificate(from: block, index: index))
        }
        guard !certificates.isEmpty else {
            let labels = blocks.map(\.name)
            let found = labels.isEmpty ? "no readable PEM block" : "PEM blocks: " + labels.joined(separator: ", ")
            throw CertificateError("no certificate found (\(found))")
        }
        return certificates
    }

    /// The certificate of one PEM block; `TRUSTED CERTIFICATE` carries trust settings after
    /// the certificate, which are dropped.
    private static func certificate(from block: CertificatePEM.Block, index: Int) throws(CertificateError) -> Certificate {
        let parsed: OpaquePointer? = block.der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return block.name == "TRUSTED CERTIFICATE"
                ? d2i_X509_AUX(nil, &cursor, buffer.count)
                : d2i_X509(nil, &cursor, buffer.count)
        }
        guard let parsed else {
            throw CertificateOpenSSL.failure("PEM block \(index + 1) (\(block.name)) is not a valid certificate")
        }
        return try Certificate(taking: parsed)
    }

    /// This certificate as a PEM `CERTIFICATE` block.
    public var pem: String {
        CertificatePEM.encode(name: "CERTIFICATE", der: derBytes)
    }
}
