import Foundation
import FaultlineTestSupport

/// Keys and certificates made with the openssl CLI once per test run, in a temp directory:
/// root → intermediate → leaves ("localhost" + 127.0.0.1, expired, wrong host, SNI names),
/// plus a leaf of an untrusted root and files that are wrong on purpose.
struct TLSTestCertificates: Sendable {
    /// Where the files live (removed with the last copy of this value).
    let files: TemporaryDirectory
    /// The directory's path.
    var directory: String { files.path }

    var rootCA: String { path("root.pem") }
    var leafChain: String { path("leaf-chain.pem") }
    var leafKey: String { path("leaf.key") }
    var expiredChain: String { path("expired-chain.pem") }
    var expiredKey: String { path("expired.key") }
    var wrongHostChain: String { path("wronghost-chain.pem") }
    var wrongHostKey: String { path("wronghost.key") }
    var untrustedChain: String { path("untrusted-chain.pem") }
    var untrustedKey: String { path("untrusted.key") }
    var apiChain: String { path("api-chain.pem") }
    var apiKey: String { path("api.key") }
    var wildcardChain: String { path("wildcard-chain.pem") }
    var wildcardKey: String { path("wildcard.key") }
    var encryptedKey: String { path("encrypted.key") }
    var notACertificate: String { path("not-a-cert.pem") }

    func path(_ name: String) -> String { files.path(name) }

    /// Made on first use; every test shares the same files.
    static let shared: Result<TLSTestCertificates, TestFailure> = Result { () throws(TestFailure) in try make() }

    static func load() throws -> TLSTestCertificates { try shared.get() }

    private static func make() throws(TestFailure) -> TLSTestCertificates {
        let directory: TemporaryDirectory
        do {
            directory = try TemporaryDirectory(prefix: "faultline-tls")
        } catch {
            throw TestFailure("cannot create a temporary directory: \(error)")
        }
        let certs = TLSTestCertificates(files: directory)
        try certs.selfSigned("root", subject: "/CN=Faultline Test Root")
        try certs.selfSigned("other-root", subject: "/CN=Untrusted Test Root")
        try certs.signed("intermediate", subject: "/CN=Faultline Test Intermediate", by: "root",
                         extensions: "basicConstraints=critical,CA:TRUE,pathlen:0\nkeyUsage=critical,keyCertSign,cRLSign\n")
        let leafExtensions = "basicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n"
        try certs.signed("leaf", subject: "/CN=localhost", by: "intermediate",
                         extensions: leafExtensions + "subjectAltName=DNS:localhost,IP:127.0.0.1\n")
        try certs.signed("expired", subject: "/CN=localhost", by: "intermediate",
                         extensions: leafExtensions + "subjectAltName=DNS:localhost,IP:127.0.0.1\n", days: -1)
        try certs.signed("wronghost", subject: "/CN=wrong.example.com", by: "intermediate",
                         extensions: leafExtensions + "subjectAltName=DNS:wrong.example.com\n")
        try certs.signed("untrusted", subject: "/CN=localhost", by: "other-root",
                         extensions: leafExtensions + "subjectAltName=DNS:localhost,IP:127.0.0.1\n")
        try certs.signed("api", subject: "/CN=api.example.com", by: "intermediate",
                         extensions: leafExtensions + "subjectAltName=DNS:api.example.com\n")
        try certs.signed("wildcard", subject: "/CN=*.example.net", by: "intermediate",
                         extensions: leafExtensions + "subjectAltName=DNS:*.example.net\n")
        for name in ["leaf", "expired", "wronghost", "api", "wildcard"] {
            try certs.concatenate([name + ".pem", "intermediate.pem"], into: name + "-chain.pem")
        }
        try certs.concatenate(["untrusted.pem"], into: "untrusted-chain.pem")
        try Command.run(["openssl", "pkey", "-in", certs.leafKey, "-aes256", "-passout", "pass:secret",
                                "-out", certs.encryptedKey])
        _ = FileManager.default.createFile(atPath: certs.notACertificate, contents: Data("just some text\n".utf8))
        return certs
    }

    private func selfSigned(_ name: String, subject: String) throws(TestFailure) {
        try Command.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
                                "-nodes", "-keyout", path(name + ".key"), "-out", path(name + ".pem"),
                                "-subj", subject, "-days", "30"])
    }

    private func signed(_ name: String, subject: String, by issuer: String, extensions: String,
                        days: Int = 30) throws(TestFailure) {
        _ = FileManager.default.createFile(atPath: path(name + ".ext"), contents: Data(extensions.utf8))
        try Command.run(["openssl", "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                                "-keyout", path(name + ".key"), "-out", path(name + ".csr"), "-subj", subject])
        try Command.run(["openssl", "x509", "-req", "-in", path(name + ".csr"), "-CA", path(issuer + ".pem"),
                                "-CAkey", path(issuer + ".key"), "-days", String(days), "-extfile", path(name + ".ext"),
                                "-out", path(name + ".pem")])
    }

    private func concatenate(_ names: [String], into target: String) throws(TestFailure) {
        var data = Data()
        for name in names {
            guard let part = FileManager.default.contents(atPath: path(name)) else {
                throw TestFailure("missing \(name)")
            }
            data.append(part)
        }
        _ = FileManager.default.createFile(atPath: path(target), contents: data)
    }
}
