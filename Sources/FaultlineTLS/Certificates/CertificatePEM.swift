private import COpenSSL

/// PEM reading and writing through OpenSSL (`PEM_read_bio` / `PEM_write_bio`).
enum CertificatePEM {
    /// One `-----BEGIN NAME-----` block: its label, whether its headers say it is
    /// encrypted, and its decoded body.
    struct Block {
        let name: String
        let encrypted: Bool
        let der: [UInt8]
    }

    /// Whether `bytes` look like PEM text (a BEGIN line somewhere).
    static func looksLikePEM(_ bytes: [UInt8]) -> Bool {
        let marker = Array("-----BEGIN ".utf8)
        guard bytes.count >= marker.count else { return false }
        for start in 0...(bytes.count - marker.count) where bytes[start] == marker[0] {
            if Array(bytes[start..<(start + marker.count)]) == marker { return true }
        }
        return false
    }

    /// Every PEM block of `bytes`, in order. A malformed block ends the list.
    static func blocks(in bytes: [UInt8]) throws(CertificateError) -> [Block] {
        let blocks = try CertificateOpenSSL.withReadBIO(bytes) { bio throws(CertificateError) -> [Block] in
            var found: [Block] = []
            while true {
                var name: UnsafeMutablePointer<CChar>?
                var header: UnsafeMutablePointer<CChar>?
                var data: UnsafeMutablePointer<UInt8>?
                var length = 0
                guard PEM_read_bio(bio, &name, &header, &data, &length) == 1 else { break }
                defer {
                    CRYPTO_free(name, nil, 0)
                    CRYPTO_free(header, nil, 0)
                    CRYPTO_free(data, nil, 0)
                }
                let label = name.map { String(cString: $0) } ?? ""
                let headers = header.map { String(cString: $0) } ?? ""
                let body = data.map { Array(UnsafeBufferPointer(start: $0, count: length)) } ?? []
                found.append(Block(name: label, encrypted: headers.contains("ENCRYPTED"), der: body))
            }
            return found
        }
        _ = CertificateOpenSSL.drainErrors()
        return blocks
    }

    /// `der` wrapped as a PEM block labelled `name`.
    static func encode(name: String, der: [UInt8]) -> String {
        CertificateOpenSSL.text { bio in
            der.withUnsafeBufferPointer { buffer in
                PEM_write_bio(bio, name, "", buffer.baseAddress, buffer.count)
            }
        } ?? ""
    }
}
