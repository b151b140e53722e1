import FaultlineAppPins
import FaultlineTLS
import FaultlineTestSupport
import Foundation
import Testing

/// TrustKit: TSKConfiguration in an Info.plist or JSON; the pin-count refusal, report-only
/// domains, expiration and subdomain rules.
@Suite(.timeLimit(.minutes(1)))
struct TrustKitTests {
    private func json(_ domains: String) -> String {
        """
        {
          "TSKConfiguration": {
            "TSKSwizzleNetworkDelegates": false,
            "TSKPinnedDomains": {
        \(domains)
            }
          }
        }
        """
    }

    private func read(_ text: String) throws -> AppPinConfiguration {
        try TrustKitReader.read(data: Data(text.utf8), file: "trustkit.json")
    }

    @Test func singlePinIsRefusedAsTrustKitRefusesIt() throws {
        let fixture = try AppPinFixture()
        let text = json("""
                  "api.example.com": {
                    "TSKPublicKeyHashes": ["\(fixture.leafPin)"]
                  }
            """)
        let message = try ATSReaderTests.error { try read(text) }
        #expect(message == "trustkit.json: TSKConfiguration.TSKPinnedDomains[\"api.example.com\"]: 1 distinct pin(s): TrustKit refuses fewer than 2 for an enforcing domain (no backup pin) (line 5)")
        let duplicated = json("""
                  "api.example.com": {
                    "TSKPublicKeyHashes": ["\(fixture.leafPin)", "\(fixture.leafPin)"]
                  }
            """)
        #expect(try ATSReaderTests.error { try read(duplicated) }.contains("1 distinct pin(s)"))
    }

    @Test func reportOnlyDomainWithOnePinLoadsAndReportsInsteadOfBlocking() throws {
        let fixture = try AppPinFixture()
        let app = try read(json("""
                  "api.example.com": {
                    "kTSKEnforcePinning": false,
                    "kTSKPublicKeyHashes": ["\(fixture.leafPin)"],
                    "kTSKReportUris": ["https://reports.example.com/pins"]
                  }
            """))
        let domain = try #require(app.domains.first)
        #expect(!domain.enforce && domain.reportURIs == ["https://reports.example.com/pins"])
        #expect(domain.pins.map(\.line) == [7])
        let verdict = AppPinEvaluator.evaluate(app, host: "api.example.com", chain: fixture.rotated, at: fixture.now)
        #expect(verdict.outcome == .reportOnlyFailure && !verdict.outcome.blocks)
        #expect(verdict.outcome.label == "PASS (report only)")
        #expect(verdict.reason.hasPrefix("would fail, but TSKEnforcePinning is false: TrustKit connects and sends a pin failure report to https://reports.example.com/pins; the pinned key is not in the verified chain (leaf CN=api.example.com"))
        #expect(AppPinEvaluator.evaluate(app, host: "api.example.com", chain: fixture.current, at: fixture.now).outcome == .pass)
    }

    @Test func expirationStopsPinningAndSubdomainsFollowTheFlag() throws {
        let fixture = try AppPinFixture()
        let app = try read(json("""
                  "example.com": {
                    "TSKIncludeSubdomains": true,
                    "TSKExpirationDate": "\(fixture.day(-1))",
                    "TSKPublicKeyHashes": ["\(fixture.rotatedLeafPin)", "\(fixture.backupPin)"]
                  },
                  "api.example.com": {
                    "TSKPublicKeyHashes": ["\(fixture.rootPin)", "\(fixture.backupPin)"]
                  }
            """))
        let expired = AppPinEvaluator.evaluate(app, host: "www.example.com", chain: fixture.current, at: fixture.now)
        #expect(expired.outcome == .notPinned)
        #expect(expired.reason == "TSKExpirationDate \(fixture.day(-1)) has passed; TrustKit no longer pins www.example.com")
        let earlier = fixture.now.addingTimeInterval(-3 * 86_400)
        #expect(AppPinEvaluator.evaluate(app, host: "a.b.example.com", chain: fixture.current, at: earlier).outcome == .fail)
        let exact = AppPinEvaluator.evaluate(app, host: "api.example.com", chain: fixture.swapped, at: fixture.now)
        #expect(exact == AppPinVerdict(outcome: .pass, reason: "the root CN=App Root,O=Faultline development key is pinned",
                                       entry: "TSKConfiguration.TSKPinnedDomains[\"api.example.com\"]"))
        #expect(AppPinEvaluator.evaluate(app, host: "www.api.example.com", chain: fixture.swapped, at: fixture.now).outcome
            == .notPinned)
    }

    @Test func infoPlistXMLAndBinaryReadAlike() throws {
        let fixture = try AppPinFixture()
        let value: [String: Any] = ["TSKConfiguration": ["TSKSwizzleNetworkDelegates": false, "TSKPinnedDomains": [
            "api.example.com": ["TSKPublicKeyHashes": [fixture.leafPin, fixture.backupPin], "TSKEnforcePinning": true],
        ]]]
        let directory = try TemporaryDirectory(prefix: "faultline-apppins")
        let binaryPath = try directory.write("Info.plist", try PlistText.binary(value))
        let xml = try PropertyListSerialization.data(fromPropertyList: value, format: .xml, options: 0)
        let xmlPath = try directory.write("Info-xml.plist", xml)
        let binary = try TrustKitReader.read(path: binaryPath)
        let text = try TrustKitReader.read(path: xmlPath)
        #expect(binary.domains.map(\.pins.count) == [2] && text.domains.map(\.pins.count) == [2])
        #expect(binary.domains.first?.pins.map(\.value) == text.domains.first?.pins.map(\.value))
        #expect(try AppPinReader.read(path: binaryPath).map(\.platform) == [.trustKit])
        let bad: [String: Any] = ["TSKConfiguration": ["TSKPinnedDomains": [
            "api.example.com": ["TSKPublicKeyHashes": [fixture.leafPin, "c2hvcnQ="]],
        ]]]
        let badPath = try directory.write("Bad.plist", try PlistText.binary(bad))
        #expect(try ATSReaderTests.error { try TrustKitReader.read(path: badPath) }
            == "\(badPath): TSKConfiguration.TSKPinnedDomains[\"api.example.com\"].TSKPublicKeyHashes[1]: not base64 of 32 bytes (binary plist, no line)")
    }

    @Test func malformedJSONAndDatesAreRefused() throws {
        let fixture = try AppPinFixture()
        #expect(try ATSReaderTests.error { try read("{ \"TSKConfiguration\": ") } == "trustkit.json: not valid JSON")
        let date = json("""
                  "api.example.com": {
                    "TSKExpirationDate": "31/12/2026",
                    "TSKPublicKeyHashes": ["\(fixture.leafPin)", "\(fixture.backupPin)"]
                  }
            """)
        #expect(try ATSReaderTests.error { try read(date) }
            == "trustkit.json: TSKConfiguration.TSKPinnedDomains[\"api.example.com\"].TSKExpirationDate: not a yyyy-MM-dd date: \"31/12/2026\" (line 6)")
        let suffix = json("""
                  "com": {
                    "TSKIncludeSubdomains": true,
                    "TSKPublicKeyHashes": ["\(fixture.leafPin)", "\(fixture.backupPin)"]
                  }
            """)
        let suffixMessage = try ATSReaderTests.error { try read(suffix) }
        #expect(suffixMessage
            == "trustkit.json: TSKConfiguration.TSKPinnedDomains[\"com\"]: TSKIncludeSubdomains on a public suffix: TrustKit refuses it (line 5)")
    }
}
