import FaultlineAppPins
import FaultlineTLS
import FaultlineTestSupport
import Foundation
import Testing

/// Format detection, the served chain against the verified chain, and verdict labels.
@Suite(.timeLimit(.minutes(1)))
struct AppPinReaderTests {
    @Test func formatsAreDetectedFromContent() throws {
        let fixture = try AppPinFixture()
        let directory = try TemporaryDirectory(prefix: "faultline-apppins")
        let both: [String: Any] = PlistText.atsValue(domain: "api.example.com", leaf: [fixture.leafPin], ca: nil).merging(
            ["TSKConfiguration": ["TSKPinnedDomains": ["api.example.com": ["TSKPublicKeyHashes": [fixture.leafPin, fixture.backupPin]]]]]
        ) { first, _ in first }
        let plist = try directory.write("Info.plist", try PlistText.binary(both))
        #expect(try AppPinReader.read(path: plist).map(\.platform) == [.ats, .trustKit])
        let android = try directory.write("network_security_config.xml", """
            <?xml version="1.0" encoding="utf-8"?>
            <network-security-config><domain-config><domain>api.example.com</domain></domain-config></network-security-config>
            """)
        #expect(try AppPinReader.read(path: android).map(\.platform) == [.android])
        let json = try directory.write("trustkit.json", "{\"TSKPinnedDomains\": {\"api.example.com\": {\"TSKEnforcePinning\": false, \"TSKPublicKeyHashes\": [\"\(fixture.leafPin)\"]}}}")
        #expect(try AppPinReader.read(path: json).map(\.platform) == [.trustKit])
        #expect(try AppPinReader.read(path: json, platform: .trustKit).first?.domains.first?.enforce == false)
        #expect(try ATSReaderTests.error { try AppPinReader.read(path: directory.path("missing.plist")) }
            == "\(directory.path("missing.plist")): no such file")
    }

    /// The root element decides, found past a prolog of any length; the whole file is read
    /// up to 1 MiB.
    @Test func xmlIsDetectedByItsRootElementPastAnyPrologAndFilesAreLimitedTo1MiB() throws {
        let fixture = try AppPinFixture()
        let directory = try TemporaryDirectory(prefix: "faultline-apppins")
        let comment = "<!-- " + String(repeating: "a licence header line, <network-security-config> in prose\n", count: 200) + "-->"
        let android = try directory.write("network_security_config.xml", """
            \u{FEFF}<?xml version="1.0" encoding="utf-8"?>
            \(comment)
            <!DOCTYPE network-security-config [ <!ENTITY note "a > b"> ]>
            <network-security-config><domain-config><domain>api.example.com</domain>
            <pin-set><pin digest="SHA-256">\(fixture.leafPin)</pin></pin-set></domain-config></network-security-config>
            """)
        #expect(try AppPinReader.read(path: android).map(\.platform) == [.android])
        let plist = try directory.write("Info.plist", PlistText.ats(domain: "api.example.com", leaf: [fixture.leafPin], ca: nil)
            .replacingOccurrences(of: "<plist", with: comment + "\n<plist"))
        #expect(try AppPinReader.read(path: plist).map(\.platform) == [.ats])
        let manifest = try directory.write("AndroidManifest.xml", "<?xml version=\"1.0\"?>\n\(comment)\n<manifest package=\"x\"/>\n")
        #expect(try ATSReaderTests.error { try AppPinReader.read(path: manifest) } == "\(manifest): an XML document, but its root "
            + "element is <manifest>: expected <network-security-config> (Android) or <plist> (an Info.plist)")
        let big = try directory.write("big.txt", String(repeating: "#\n", count: (1 << 20) / 2 + 1))
        #expect(try ATSReaderTests.error { try AppPinReader.read(path: big) }
            == "\(big): 1048578 bytes, larger than the 1 MiB (1048576-byte) limit for an app pin file")
        #expect(try ATSReaderTests.error { try AppPinReader.read(path: big, platform: .android) }
            == "\(big): 1048578 bytes, larger than the 1 MiB (1048576-byte) limit for an app pin file")
        #expect(try ATSReaderTests.error { try AppPinReader.read(path: directory.path) } == "\(directory.path): cannot be read")
    }

    @Test func aPinnedKeyServedOffTheVerifiedPathDoesNotCount() throws {
        let fixture = try AppPinFixture()
        let app = try OkHttpPinnerReader.read(text: "api.example.com sha256/\(fixture.swappedIntermediate.certificate.pin.base64)\n",
                                              file: "pins.txt", source: false)
        let chain = AppChain(served: fixture.leaf.chain + [fixture.swappedIntermediate.certificate],
                             verified: fixture.leaf.chain + [fixture.root.certificate])
        let verdict = AppPinEvaluator.evaluate(app, host: "api.example.com", chain: chain, at: fixture.now)
        #expect(verdict.outcome == .fail)
        #expect(verdict.reason.hasSuffix("(the served intermediate CN=App Intermediate 2,O=Faultline development has a pinned key, but it is not on the verified path, which is what is checked)"))
    }

    @Test func labelsAndBlocking() {
        #expect(AppPinOutcome.allCases.map(\.label) == ["PASS", "FAIL", "NOT PINNED", "PASS (report only)"])
        #expect(AppPinOutcome.allCases.filter(\.blocks) == [.fail])
        #expect(AppPinVerdict(outcome: .notPinned, reason: "no entry").description == "NOT PINNED: no entry")
    }
}
