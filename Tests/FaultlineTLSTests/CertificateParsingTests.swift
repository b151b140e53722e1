import FaultlineTLS
import Foundation
import Testing
import FaultlineTestSupport

/// Certificates read by OpenSSL, compared with what the openssl CLI says about them.
@Suite(.timeLimit(.minutes(1)))
struct CertificateParsingTests {
    @Test func readsSubjectIssuerNamesAndValidity() throws {
        let scratch = try TemporaryDirectory(prefix: "faultline-tls")
        try scratch.shell("""
            openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout key.pem -out cert.pem \
              -subj '/O=Test/CN=leaf.example' -days 2 \
              -addext 'subjectAltName=DNS:leaf.example,DNS:*.leaf.example,IP:127.0.0.1,IP:::1'
            """)
        let certificates = try Certificate.loadAll(path: scratch.path("cert.pem"))
        #expect(certificates.count == 1)
        let certificate = try #require(certificates.first)
        #expect(certificate.subject == "CN=leaf.example,O=Test")
        #expect(certificate.issuer == "CN=leaf.example,O=Test")
        #expect(certificate.isSelfSigned)
        #expect(certificate.subjectAlternativeNames == ["DNS:leaf.example", "DNS:*.leaf.example", "IP:127.0.0.1", "IP:::1"])
        #expect(certificate.publicKey.algorithm == "EC P-256")
        #expect(!certificate.isExpired(at: Date()))
        #expect(certificate.isExpired(at: Date().addingTimeInterval(3 * 86_400)))
        #expect(abs(certificate.notAfter.timeIntervalSinceNow - 2 * 86_400) < 120)
        #expect(certificate.notAfterISO8601.hasSuffix("Z"))
        let fingerprint = try scratch.shell("openssl x509 -in cert.pem -noout -fingerprint -sha256")
        #expect(fingerprint.contains(certificate.sha256Fingerprint))
    }

    @Test func pemAndDERGiveTheSameCertificateAndThePipelinePin() throws {
        let scratch = try TemporaryDirectory(prefix: "faultline-tls")
        try scratch.shell("""
            openssl req -x509 -newkey rsa:2048 -nodes -keyout key.pem -out cert.pem -subj '/CN=rsa.example' -days 1 \
              && openssl x509 -in cert.pem -outform DER -out cert.der
            """)
        let pem = try #require(try Certificate.loadAll(path: scratch.path("cert.pem")).first)
        let der = try #require(try Certificate.loadAll(path: scratch.path("cert.der")).first)
        #expect(pem == der)
        #expect(pem.derBytes == Array(try Data(contentsOf: URL(fileURLWithPath: scratch.path("cert.der")))))
        #expect(pem.spkiPin == (try scratch.certificatePin("cert.pem")))
        #expect(der.spkiPin == (try scratch.certificatePin("cert.der", der: true)))
        #expect(pem.publicKey.algorithm == "RSA 2048")
        #expect(pem.pin.base64 == pem.spkiPin)
        try scratch.shell("openssl x509 -in cert.pem -noout -pubkey | openssl pkey -pubin -outform DER -out spki.der")
        #expect(pem.spkiDER == Array(try Data(contentsOf: URL(fileURLWithPath: scratch.path("spki.der")))))
    }

    @Test func errorsNameTheFileAndWhatItHolds() throws {
        let scratch = try TemporaryDirectory(prefix: "faultline-tls")
        try scratch.shell("openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out key.pem")
        let empty = try scratch.write("empty.pem", "")
        let garbage = try scratch.write("garbage.bin", "hello, not a certificate")
        #expect(throws: CertificateError.self) { try Certificate.loadAll(path: empty) }
        do {
            _ = try Certificate.loadAll(path: scratch.path("key.pem"))
            Issue.record("a key file was read as a certificate")
        } catch {
            #expect(error.message.contains("key.pem"))
            #expect(error.message.contains("PRIVATE KEY"))
        }
        do {
            _ = try Certificate.loadAll(path: garbage)
            Issue.record("garbage was read as a certificate")
        } catch {
            #expect(error.message.contains("garbage.bin"))
            #expect(error.message.contains("not PEM"))
        }
        do {
            _ = try Certificate.loadAll(path: scratch.path("nope.pem"))
            Issue.record("a missing file was read")
        } catch {
            #expect(error.message.contains("nope.pem"))
            #expect(error.message.contains("No such file"))
        }
    }
}
