import FaultlineTLS
import Foundation
import Testing
import FaultlineTestSupport

/// `pins compute FILE` inputs: each kind's pin equals the openssl CLI pipeline.
@Suite(.timeLimit(.minutes(1)))
struct CertificateInspectorTests {
    @Test func certificatePEMAndDER() throws {
        let scratch = try TemporaryDirectory(prefix: "faultline-tls")
        try scratch.shell("""
            openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout k.pem -out c.pem -subj '/CN=a' -days 1
            openssl x509 -in c.pem -outform DER -out c.der
            """)
        let pem = try CertificateInspector.inspect(path: scratch.path("c.pem"))
        #expect(pem.kind == .certificate && pem.encoding == "PEM")
        #expect(pem.pins == [try scratch.certificatePin("c.pem")])
        let der = try CertificateInspector.inspect(path: scratch.path("c.der"))
        #expect(der.kind == .certificate && der.encoding == "DER")
        #expect(der.pins == pem.pins)
    }

    @Test func chainKeepsFileOrderWithEveryPin() throws {
        let scratch = try TemporaryDirectory(prefix: "faultline-tls")
        try scratch.shell("""
            openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout ca.key -out ca.pem -subj '/CN=Root' -days 2
            openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout leaf.key -out leaf.csr -subj '/CN=leaf'
            openssl x509 -req -in leaf.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out leaf.pem -days 1
            cat leaf.pem ca.pem > chain.pem
            """)
        let input = try CertificateInspector.inspect(path: scratch.path("chain.pem"))
        #expect(input.kind == .chain)
        #expect(input.certificates.map(\.subject) == ["CN=leaf", "CN=Root"])
        #expect(input.pins == [try scratch.certificatePin("leaf.pem"), try scratch.certificatePin("ca.pem")])
        #expect(CertificatePosition.positions(of: input.certificates) == [.leaf, .root])
        #expect(input.certificates[1].issued(input.certificates[0]))
        #expect(input.certificates[1].isCA && !input.certificates[0].isCA)
    }

    @Test(arguments: [
        ("rsa-pkcs8.pem", "openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out rsa-pkcs8.pem"),
        ("rsa-traditional.pem", "openssl genrsa -traditional -out rsa-traditional.pem 2048"),
        ("ec-params.pem", "openssl ecparam -name prime256v1 -genkey -out ec-params.pem"),
        ("ec-pkcs8.pem", "openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-384 -out ec-pkcs8.pem"),
        ("ed25519.pem", "openssl genpkey -algorithm ED25519 -out ed25519.pem"),
    ])
    func privateKeys(file: String, command: String) throws {
        let scratch = try TemporaryDirectory(prefix: "faultline-tls")
        try scratch.shell(command)
        let input = try CertificateInspector.inspect(path: scratch.path(file))
        #expect(input.kind == .privateKey)
        #expect(input.pins == [try scratch.pipelinePin(publicKeyCommand: "openssl pkey -in \(file) -pubout")])
        try scratch.shell("openssl pkey -in \(file) -outform DER -out key.der")
        let der = try CertificateInspector.inspect(path: scratch.path("key.der"))
        #expect(der.kind == .privateKey && der.encoding == "DER")
        #expect(der.pins == input.pins)
    }

    @Test func publicKeyAndCertificateRequest() throws {
        let scratch = try TemporaryDirectory(prefix: "faultline-tls")
        try scratch.shell("""
            openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out k.pem
            openssl pkey -in k.pem -pubout -out pub.pem
            openssl pkey -in k.pem -pubout -outform DER -out pub.der
            openssl req -new -key k.pem -subj '/O=Test/CN=csr.example' -out req.pem
            openssl genrsa -out r.pem 2048 && openssl rsa -in r.pem -RSAPublicKey_out -out rsapub.pem
            """)
        let expected = try scratch.pipelinePin(publicKeyCommand: "cat pub.pem")
        let publicKey = try CertificateInspector.inspect(path: scratch.path("pub.pem"))
        #expect(publicKey.kind == .publicKey && publicKey.pins == [expected])
        #expect(publicKey.publicKey?.algorithm == "EC P-256")
        #expect(try CertificateInspector.inspect(path: scratch.path("pub.der")).pins == [expected])
        let request = try CertificateInspector.inspect(path: scratch.path("req.pem"))
        #expect(request.kind == .certificateRequest)
        #expect(request.requestSubject == "CN=csr.example,O=Test")
        #expect(request.pins == [try scratch.pipelinePin(publicKeyCommand: "openssl req -in req.pem -noout -pubkey")])
        let pkcs1 = try CertificateInspector.inspect(path: scratch.path("rsapub.pem"))
        #expect(pkcs1.kind == .publicKey)
        #expect(pkcs1.pins == [try scratch.pipelinePin(publicKeyCommand: "openssl pkey -in r.pem -pubout")])
    }

    @Test func refusalsSayWhatWasFound() throws {
        let scratch = try TemporaryDirectory(prefix: "faultline-tls")
        try scratch.shell("""
            openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -aes256 -pass pass:secret -out enc.pem
            openssl ecparam -name prime256v1 -out params.pem
            """)
        let cases: [(String, String)] = [
            ("enc.pem", "encrypted private key"),
            ("params.pem", "EC PARAMETERS"),
            ("empty.pem", "empty file"),
        ]
        try scratch.write("empty.pem", "")
        for (file, fragment) in cases {
            do {
                _ = try CertificateInspector.inspect(path: scratch.path(file))
                Issue.record("\(file) was accepted")
            } catch {
                #expect(error.message.hasPrefix(scratch.path(file)), "\(error)")
                #expect(error.message.contains(fragment), "\(error)")
            }
        }
    }
}
