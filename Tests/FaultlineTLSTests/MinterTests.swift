import FaultlineTLS
import Foundation
import Testing
import FaultlineTestSupport

/// The minter's output as the openssl CLI sees it.
@Suite(.timeLimit(.minutes(1)))
struct MinterTests {
    @Test func mintedChainVerifiesWithOpenSSL() throws {
        let fixture = try PinFixture()
        let scratch = try TemporaryDirectory(prefix: "faultline-tls")
        try scratch.write("root.pem", fixture.root.certificate.pem)
        try scratch.write("intermediate.pem", fixture.intermediate.certificate.pem)
        try scratch.write("leaf.pem", fixture.leaf.certificate.pem)
        try scratch.write("chain.pem", fixture.leaf.chainPEM)
        let output = try scratch.shell("openssl verify -CAfile root.pem -untrusted intermediate.pem -verify_hostname leaf.example leaf.pem")
        #expect(output.contains("leaf.pem: OK"))
        #expect(fixture.leaf.chain.count == 2)
        #expect(fixture.leaf.certificate.subjectAlternativeNames == ["DNS:leaf.example"])
        #expect(fixture.root.certificate.isSelfSigned && fixture.root.certificate.isCA)
        #expect(fixture.intermediate.certificate.isCA && !fixture.intermediate.certificate.isSelfSigned)
        #expect(!fixture.leaf.certificate.isCA)
        #expect(fixture.leaf.certificate.issuer == fixture.intermediate.certificate.subject)
        let text = try scratch.shell("openssl x509 -in root.pem -noout -ext basicConstraints,keyUsage")
        #expect(text.contains("CA:TRUE") && text.contains("Certificate Sign"))
        // The minted key round-trips through PEM and matches its certificate.
        let keyPath = try scratch.write("leaf-key.pem", fixture.leaf.key.privateKeyPEM)
        let key = try CertificateKey.load(path: keyPath)
        #expect(key.matches(fixture.leaf.certificate))
        #expect(try scratch.pipelinePin(publicKeyCommand: "openssl pkey -in leaf-key.pem -pubout") == fixture.leaf.certificate.spkiPin)
    }

    @Test func leafWithIPAddressesAndRSA() throws {
        let now = Date()
        let root = try CertificateMinter.rootCA(commonName: "Root", key: try CertificateKey.generate(.rsa2048), validity: .days(2, from: now))
        let leaf = try CertificateMinter.leaf(names: ["localhost", "127.0.0.1", "::1"], key: try CertificateKey.generate(.rsa2048),
                                              issuer: root, validity: .days(1, from: now))
        #expect(leaf.certificate.subjectAlternativeNames == ["DNS:localhost", "IP:127.0.0.1", "IP:::1"])
        #expect(leaf.certificate.publicKey.algorithm == "RSA 2048")
        #expect(leaf.certificate.subject == "CN=localhost,O=Faultline development")
        let scratch = try TemporaryDirectory(prefix: "faultline-tls")
        try scratch.write("root.pem", root.certificate.pem)
        try scratch.write("leaf.pem", leaf.chainPEM)
        #expect(try scratch.shell("openssl verify -CAfile root.pem -verify_ip 127.0.0.1 leaf.pem").contains("OK"))
        #expect(throws: CertificateError.self) {
            try CertificateMinter.leaf(names: [], key: root.key, issuer: root, validity: .days(1, from: now))
        }
    }

    @Test func drillsFailVerificationForTheirReason() throws {
        let fixture = try PinFixture()
        let scratch = try TemporaryDirectory(prefix: "faultline-tls")
        try scratch.write("root.pem", fixture.root.certificate.pem)
        let expectations: [(CertificateDrill, String)] = [
            (.expired, "certificate has expired"),
            (.wrongHost, "hostname mismatch"),
            (.untrusted, "unable to get local issuer certificate"),
        ]
        for (drill, error) in expectations {
            let material = try CertificateMinter.drill(drill, names: ["leaf.example"], issuer: fixture.root, now: fixture.now)
            try scratch.write("\(drill.rawValue).pem", material.chainPEM)
            let result = try scratch.shellResult("openssl verify -CAfile root.pem -verify_hostname leaf.example \(drill.rawValue).pem")
            #expect(result.status != 0, "\(drill) verified")
            #expect(result.output.contains(error), "\(drill): \(result.output)")
        }
        let expired = try CertificateMinter.drill(.expired, names: ["leaf.example"], issuer: fixture.root, now: fixture.now)
        #expect(expired.certificate.isExpired(at: fixture.now))
        let other = try CertificateMinter.drill(.otherKey, names: ["leaf.example"], issuer: fixture.root, now: fixture.now)
        try scratch.write("other.pem", other.chainPEM)
        #expect(try scratch.shell("openssl verify -CAfile root.pem -verify_hostname leaf.example other.pem").contains("OK"))
        #expect(other.certificate.spkiPin != fixture.leaf.certificate.spkiPin)
    }

    @Test func initDirectoryIsIdempotentAndKeysArePrivate() throws {
        let scratch = try TemporaryDirectory(prefix: "faultline-tls")
        let directory = scratch.path("certs")
        let first = try CertificateMinter.initDirectory(directory, names: ["localhost", "127.0.0.1"], drills: true, force: false, now: Date())
        #expect(first.createdCA)
        #expect(first.drills.count == CertificateDrill.allCases.count)
        for name in ["ca-key.pem", "proxy-key.pem", "drill-expired-key.pem"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: "\(directory)/\(name)")
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600, "\(name)")
        }
        #expect(try scratch.shell("openssl verify -CAfile certs/ca.pem -verify_hostname localhost certs/proxy.pem").contains("OK"))
        let second = try CertificateMinter.initDirectory(directory, names: ["localhost"], drills: false, force: false, now: Date())
        #expect(!second.createdCA)
        #expect(second.ca == first.ca)
        #expect(second.leaf.spkiPin == first.leaf.spkiPin)
        #expect(second.leaf.subjectAlternativeNames == ["DNS:localhost"])
        let forced = try CertificateMinter.initDirectory(directory, names: ["localhost"], drills: false, force: true, now: Date())
        #expect(forced.createdCA && forced.ca != first.ca && forced.leaf.spkiPin != first.leaf.spkiPin)
    }
}
