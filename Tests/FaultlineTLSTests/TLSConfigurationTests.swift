@testable import FaultlineTLS
import Testing

@Suite("TLS configuration errors", .timeLimit(.minutes(1)))
struct TLSConfigurationTests {
    let certs: TLSTestCertificates
    init() throws { certs = try TLSTestCertificates.load() }

    func serverError(_ chain: String, _ key: String) -> String? {
        do {
            _ = try TLSServerContext(certificateChainFile: chain, privateKeyFile: key)
            return nil
        } catch {
            return error.description
        }
    }

    @Test("each unusable file is named with what is wrong")
    func serverFiles() {
        let missing = certs.path("missing.pem")
        #expect(serverError(missing, certs.leafKey) == "cannot read certificate file \(missing): No such file or directory")
        #expect(serverError(certs.leafChain, missing) == "cannot read key file \(missing): No such file or directory")
        #expect(serverError(certs.leafChain, certs.apiKey) == "key \(certs.apiKey) does not match certificate \(certs.leafChain)")
        #expect(serverError(certs.leafChain, certs.encryptedKey)?.hasPrefix("key file \(certs.encryptedKey) is encrypted") == true)
        #expect(serverError(certs.notACertificate, certs.leafKey)?.hasPrefix("certificate file \(certs.notACertificate) contains no certificate") == true)
        #expect(serverError(certs.leafKey, certs.leafChain)?.contains("were the certificate and key files swapped?") == true)
        #expect(serverError(certs.leafChain, certs.notACertificate)?.hasPrefix("key file \(certs.notACertificate) is not in a supported format") == true)
        #expect(serverError(certs.directory, certs.leafKey)?.hasPrefix("cannot read certificate file \(certs.directory): Is a directory") == true)
        #expect(serverError(certs.leafChain, certs.leafKey) == nil)
    }

    @Test("a CA file without certificates is refused by name")
    func caFile() {
        #expect(throws: TLSConfigurationError.self) {
            _ = try TLSClientContext(caFile: certs.notACertificate)
        }
        do {
            _ = try TLSClientContext(trustSystemStore: false, caFile: certs.notACertificate)
        } catch {
            #expect(error.description.hasPrefix("CA file \(certs.notACertificate) contains no certificate"))
            #expect(error.file == certs.notACertificate)
        }
        #expect(throws: Never.self) { _ = try TLSClientContext(trustSystemStore: true, caFile: certs.rootCA) }
        #expect(throws: TLSConfigurationError.self) { _ = try TLSClientContext(trustSystemStore: false) }
    }

    @Test("a bad SNI entry is reported by its file; ALPN names are checked")
    func sniAndALPN() {
        let missing = certs.path("nope.pem")
        #expect(throws: TLSConfigurationError.self) {
            _ = try TLSServerContext(certificateChainFile: certs.leafChain, privateKeyFile: certs.leafKey,
                                     serverNames: ["a.test": TLSCertificateFiles(certificateChainFile: missing, privateKeyFile: certs.leafKey)])
        }
        #expect(throws: TLSConfigurationError.self) {
            _ = try TLSServerContext(certificateChainFile: certs.leafChain, privateKeyFile: certs.leafKey, alpnProtocols: [""])
        }
    }
}
