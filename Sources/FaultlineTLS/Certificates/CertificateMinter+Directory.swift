public import FoundationEssentials

extension CertificateMinter {
    /// File names inside a certificates directory.
    public enum FileName {
        /// The development CA certificate, the file to trust.
        public static let ca = "ca.pem"
        /// The CA's private key (0600).
        public static let caKey = "ca-key.pem"
        /// The listener certificate chain.
        public static let leaf = "proxy.pem"
        /// The listener's private key (0600).
        public static let leafKey = "proxy-key.pem"
    }

    /// Sets up `directory` for development TLS: a CA (kept if present, unless `force`), a
    /// listener leaf for `names` signed by it (re-issued every time, keeping an existing
    /// key so its pin stays stable, unless `force`), and with `drills` every drill
    /// certificate. Private keys are written with permissions 0600.
    public static func initDirectory(_ directory: String, names: [String], drills: Bool, force: Bool,
                                     now: Date) throws(CertificateError) -> CertificateDirectoryReport {
        guard !names.isEmpty else { throw CertificateError("--names: give at least one DNS name or IP address") }
        try CertificateFile.makeDirectory(directory)
        let path = { (name: String) in directory.hasSuffix("/") ? directory + name : directory + "/" + name }
        var written: [String] = []
        var kept: [String] = []

        let caPath = path(FileName.ca), caKeyPath = path(FileName.caKey)
        let authority: CertificateAuthority
        let createdCA: Bool
        if !force && CertificateFile.exists(caPath) {
            guard CertificateFile.exists(caKeyPath) else {
                throw CertificateError("\(caPath) exists but \(caKeyPath) does not: restore the key, or use --force to make a new CA")
            }
            guard let certificate = try Certificate.loadAll(path: caPath).first else { throw CertificateError("\(caPath): no certificate") }
            do {
                authority = try CertificateAuthority(certificate: certificate, key: try CertificateKey.load(path: caKeyPath))
            } catch {
                throw CertificateError("\(caKeyPath): \(error.message); use --force to make a new CA")
            }
            kept += [caPath, caKeyPath]
            createdCA = false
        } else {
            authority = try rootCA(commonName: "Faultline development CA", key: try CertificateKey.generate(),
                                   validity: .days(3650, from: now))
            try CertificateFile.write(authority.key.privateKeyPEM, to: caKeyPath, mode: 0o600)
            try CertificateFile.write(authority.certificate.pem, to: caPath, mode: 0o644)
            written += [caKeyPath, caPath]
            createdCA = true
        }

        let leafKeyPath = path(FileName.leafKey)
        let leafKey = try reusableKey(at: leafKeyPath, force: force || createdCA, kept: &kept)
        // 397 days: the longest validity Apple platforms accept for a TLS server certificate.
        let leaf = try self.leaf(names: names, key: leafKey, issuer: authority, validity: .days(397, from: now))
        if !kept.contains(leafKeyPath) {
            try CertificateFile.write(leafKey.privateKeyPEM, to: leafKeyPath, mode: 0o600)
            written.append(leafKeyPath)
        }
        try CertificateFile.write(leaf.chainPEM, to: path(FileName.leaf), mode: 0o644)
        written.append(path(FileName.leaf))

        var minted: [(drill: CertificateDrill, path: String, certificate: Certificate)] = []
        if drills {
            for drill in CertificateDrill.allCases {
                let keyPath = path(drill.keyFile)
                let key = try reusableKey(at: keyPath, force: force, kept: &kept)
                let material = try self.drill(drill, names: names, issuer: authority, key: key, now: now)
                if !kept.contains(keyPath) {
                    try CertificateFile.write(key.privateKeyPEM, to: keyPath, mode: 0o600)
                    written.append(keyPath)
                }
                try CertificateFile.write(material.chainPEM, to: path(drill.certificateFile), mode: 0o644)
                written.append(path(drill.certificateFile))
                minted.append((drill, path(drill.certificateFile), material.certificate))
            }
        }
        return CertificateDirectoryReport(directory: directory, ca: authority.certificate, createdCA: createdCA,
                                          leaf: leaf.certificate, written: written, kept: kept, drills: minted)
    }

    /// The key at `path` when it exists, is readable and `force` is false; a new one otherwise.
    private static func reusableKey(at path: String, force: Bool, kept: inout [String]) throws(CertificateError) -> CertificateKey {
        if !force && CertificateFile.exists(path), let key = try? CertificateKey.load(path: path) {
            kept.append(path)
            return key
        }
        return try CertificateKey.generate()
    }
}

extension CertificateMinter {
    /// Makes sure a development CA exists at `certificatePath` / `keyPath` (a forward proxy's
    /// interception CA): kept when both files exist, minted as `initDirectory` mints one when
    /// neither does (key 0600), refused when only one of them exists. True when minted.
    public static func ensureCA(certificatePath: String, keyPath: String, now: Date) throws(CertificateError) -> Bool {
        let hasCertificate = CertificateFile.exists(certificatePath)
        let hasKey = CertificateFile.exists(keyPath)
        if hasCertificate && hasKey { return false }
        if hasCertificate != hasKey {
            let missing = hasCertificate ? keyPath : certificatePath
            throw CertificateError("\(missing) is missing beside \(hasCertificate ? certificatePath : keyPath): restore it, or remove both to mint a new CA")
        }
        let directory = URL(fileURLWithPath: certificatePath).deletingLastPathComponent().path
        try CertificateFile.makeDirectory(directory)
        let authority = try rootCA(commonName: "Faultline development CA", key: try CertificateKey.generate(),
                                   validity: .days(3650, from: now))
        try CertificateFile.write(authority.key.privateKeyPEM, to: keyPath, mode: 0o600)
        try CertificateFile.write(authority.certificate.pem, to: certificatePath, mode: 0o644)
        return true
    }
}
