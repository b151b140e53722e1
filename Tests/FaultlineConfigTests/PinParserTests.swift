import Foundation
import Testing
@testable import FaultlineConfig
import FaultlineTLS

@Suite("Pin parsing")
struct PinParserTests {
    private static let hint = "A pin is base64(SHA-256(SubjectPublicKeyInfo)) and survives certificate renewal with the same key; "
        + "get it with: faultline pins compute cert.pem (or: openssl x509 -in cert.pem -noout -pubkey "
        + "| openssl pkey -pubin -outform DER | openssl dgst -sha256 -binary | base64)"

    @Test(arguments: [
        PinVectors.a,
        "sha256/\(PinVectors.a)",
        "SHA256/\(PinVectors.a)",
        "sha256//\(PinVectors.a)",
        "pin-sha256=\"\(PinVectors.a)\"",
        "pin-sha256=\(PinVectors.a)",
        "pin-sha256=\"\(PinVectors.a)\";",
        "pin-sha256 = \"\(PinVectors.a)\"",
        "  sha256/\(PinVectors.a)\n",
        "\t\(PinVectors.a) ",
    ])
    func everySpellingGivesTheSamePin(spelling: String) throws {
        let pin = try PinParser.parse(spelling)
        #expect(pin.base64 == PinVectors.a)
        #expect(pin.description == "sha256/\(PinVectors.a)")
        #expect(pin.digest.count == 32)
        #expect(pin.digest.map { String(format: "%02x", $0) }.joined() == PinVectors.aHex)
    }

    @Test func barePinContainingSlash() throws {
        #expect(try PinParser.parse(PinVectors.b).base64 == PinVectors.b)
        #expect(try PinParser.parse("sha256//\(PinVectors.b)").base64 == PinVectors.b)
        #expect(try PinParser.parse("pin-sha256=\"\(PinVectors.b)\"").base64 == PinVectors.b)
    }

    @Test func pinsCompareByDigest() throws {
        #expect(try PinParser.parse("sha256//\(PinVectors.c)") == PinParser.parse("pin-sha256=\"\(PinVectors.c)\""))
        #expect(try PinParser.parse(PinVectors.a) != PinParser.parse(PinVectors.c))
        #expect(SPKIPinValue(digest: [UInt8](repeating: 0, count: 20)) == nil)
        #expect(SPKIPinValue(digest: [UInt8](repeating: 0, count: 32))?.base64 == "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=")
    }

    @Test(arguments: [
        (PinVectors.aSHA256Fingerprint, "SHA-256"),
        (String(PinVectors.aSHA256Fingerprint.dropFirst("sha256 Fingerprint=".count)), "SHA-256"),
        (PinVectors.aHex, "SHA-256"),
        (PinVectors.aHex.uppercased(), "SHA-256"),
        ("sha256/\(PinVectors.aHex)", "SHA-256"),
        (PinVectors.aSHA1Fingerprint, "SHA-1"),
        ("555D08ED38ECA38D93598F61BDF82B056F493285", "SHA-1"),
        ("55 5D 08 ED 38 EC A3 8D 93 59 8F 61 BD F8 2B 05 6F 49 32 85", "SHA-1"),
    ])
    func hexFingerprintRefusedWithExplanation(text: String, hash: String) {
        #expect(throws: PinParseError(
            message: "\(JSONValue.quoted(text)) looks like a hex \(hash) certificate fingerprint, not an SPKI pin. \(Self.hint)")
        ) {
            try PinParser.parse(text)
        }
    }

    @Test func exactFingerprintMessage() {
        let text = "E8:7E:E3:D1:B5:DE:5C:2D:5C:B3:06:2D:F8:E7:92:B3:B8:D5:A7:ED:83:0C:39:DC:D5:4D:F2:1F:EB:6C:F5:09"
        do {
            _ = try PinParser.parse(text)
            Issue.record("expected an error")
        } catch {
            #expect(error.description == #""E8:7E:E3:D1:B5:DE:5C:2D:5C:B3:06:2D:F8:E7:92:B3:B8:D5:A7:ED:83:0C:39:DC:D5:4D:F2…" "#
                + "looks like a hex SHA-256 certificate fingerprint, not an SPKI pin. A pin is base64(SHA-256(SubjectPublicKeyInfo)) "
                + "and survives certificate renewal with the same key; get it with: faultline pins compute cert.pem "
                + "(or: openssl x509 -in cert.pem -noout -pubkey | openssl pkey -pubin -outform DER "
                + "| openssl dgst -sha256 -binary | base64)")
        }
    }

    @Test(arguments: [
        ("", #"expected an SPKI pin such as sha256/<44 base64 characters>, got """#),
        ("   ", #"expected an SPKI pin such as sha256/<44 base64 characters>, got """#),
        ("sha1/\(PinVectors.sha1Base64)", #"only sha256 pins are supported, got a sha1 pin "sha1/qZk+NkcGgWq6PiVxeFDCbJzQ2J0=""#),
        ("SHA-1/\(PinVectors.sha1Base64)", #"only sha256 pins are supported, got a sha1 pin "SHA-1/qZk+NkcGgWq6PiVxeFDCbJzQ2J0=""#),
        ("sha384/\(PinVectors.a)", #"only sha256 pins are supported, got a sha384 pin "sha384/LS9vcySXBAyt8EaeQcIhUHY70NaslgUhcADhS19cUxo=""#),
        ("pin-sha1=\"\(PinVectors.sha1Base64)\"",
         #"only sha256 pins are supported, got a sha1 pin "pin-sha1=\"qZk+NkcGgWq6PiVxeFDCbJzQ2J0=\"""#),
        (PinVectors.sha1Base64,
         #""qZk+NkcGgWq6PiVxeFDCbJzQ2J0=" decodes to 20 bytes; a SHA-256 pin is 32 bytes (20 bytes is the size of a SHA-1 digest)"#),
        ("sha256/AAAA", #""sha256/AAAA" decodes to 3 bytes; a SHA-256 pin is 32 bytes"#),
        ("sha256/" + String(PinVectors.a.dropLast()),
         #"expected the base64 of a 32-byte SHA-256 digest (44 characters ending in "="), got "sha256/LS9vcySXBAyt8EaeQcIhUHY70NaslgUhcADhS19cUxo""#),
        ("sha256/not base64!", #"expected the base64 of a 32-byte SHA-256 digest (44 characters ending in "="), got "sha256/not base64!""#),
        ("sha256/", #"expected the base64 of a 32-byte SHA-256 digest (44 characters ending in "="), got "sha256/""#),
        ("pin-sha256=\"\(PinVectors.a)",
         #"expected pin-sha256="<base64>" with matching quotes, got "pin-sha256=\"LS9vcySXBAyt8EaeQcIhUHY70NaslgUhcADhS19cUxo=""#),
    ])
    func refusals(text: String, message: String) {
        #expect(throws: PinParseError(message: message)) {
            try PinParser.parse(text)
        }
    }
}
