import FaultlineAppPins
import FaultlineTLS
import Foundation
import Testing

/// Android network_security_config.xml: reading (nesting, inheritance, anchors, debug
/// overrides, errors) and rules (most specific domain, expiration, overridePins).
@Suite(.timeLimit(.minutes(1)))
struct AndroidTests {
    private func read(_ text: String) throws -> AppPinConfiguration {
        try AndroidConfigReader.read(data: Data(text.utf8), file: "network_security_config.xml")
    }

    private func nested(_ fixture: AppPinFixture, expiration: String) -> String {
        """
        <?xml version="1.0" encoding="utf-8"?>
        <network-security-config>
            <base-config>
                <trust-anchors>
                    <certificates src="system"/>
                    <certificates src="user" overridePins="true"/>
                </trust-anchors>
            </base-config>
            <domain-config>
                <domain includeSubdomains="true">example.com</domain>
                <pin-set expiration="\(expiration)">
                    <pin digest="SHA-256">\(fixture.leafPin)</pin>
                    <pin digest="SHA-256">\(fixture.backupPin)</pin>
                </pin-set>
                <domain-config>
                    <domain>api.example.com</domain>
                    <trust-anchors>
                        <certificates src="system"/>
                    </trust-anchors>
                </domain-config>
                <domain-config>
                    <domain includeSubdomains="true">b.example.com</domain>
                    <pin-set>
                        <pin digest="SHA-256">\(fixture.intermediatePin)</pin>
                    </pin-set>
                </domain-config>
            </domain-config>
            <debug-overrides>
                <trust-anchors>
                    <certificates src="@raw/debug_ca"/>
                </trust-anchors>
            </debug-overrides>
        </network-security-config>
        """
    }

    @Test func nestedConfigsInheritPinsAndAnchors() throws {
        let fixture = try AppPinFixture()
        let app = try read(nested(fixture, expiration: fixture.day(30)))
        #expect(app.platform == .android)
        #expect(app.domains.map(\.pattern) == [.domainAndSubdomains("example.com"), .exact("api.example.com"),
                                               .domainAndSubdomains("b.example.com")])
        #expect(app.domains.map(\.keyPath) == ["network-security-config/domain-config/domain",
                                               "network-security-config/domain-config/domain-config[1]/domain",
                                               "network-security-config/domain-config/domain-config[2]/domain"])
        #expect(app.domains.map(\.line) == [10, 16, 22])
        #expect(app.domains[1].pins == app.domains[0].pins)
        #expect(app.domains[0].pins.map(\.line) == [12, 13])
        #expect(app.domains[2].pins.map(\.value.base64) == [fixture.intermediatePin])
        #expect(app.domains[2].expiration == nil)
        #expect(app.domains[0].trustAnchors == [AppTrustAnchor(source: .system, overridePins: false, line: 5),
                                                AppTrustAnchor(source: .user, overridePins: true, line: 6)])
        #expect(app.domains[1].trustAnchors == [AppTrustAnchor(source: .system, overridePins: false, line: 18)])
        #expect(app.overrides.debugTrustAnchors == [AppTrustAnchor(source: .resource("@raw/debug_ca"), overridePins: true, line: 30)])
        #expect(app.warnings == [
            "network-security-config/debug-overrides: applies to debuggable builds only; ignored for release builds (line 28)",
            "network-security-config/domain-config/domain-config[2]/pin-set: one pin and no backup pin (line 23)",
        ])
    }

    @Test func mostSpecificDomainConfigWins() throws {
        let fixture = try AppPinFixture()
        let app = try read(nested(fixture, expiration: fixture.day(30)))
        let viaParent = AppPinEvaluator.evaluate(app, host: "www.example.com", chain: fixture.rotated, at: fixture.now)
        #expect(viaParent.outcome == .fail)
        #expect(viaParent.entry == "network-security-config/domain-config/domain")
        #expect(viaParent.reason == "none of the 2 pinned keys is in the verified chain (leaf CN=api.example.com,O=Faultline development, intermediate CN=App Intermediate,O=Faultline development, root CN=App Root,O=Faultline development)")
        let viaChild = AppPinEvaluator.evaluate(app, host: "a.b.example.com", chain: fixture.rotated, at: fixture.now)
        #expect(viaChild == AppPinVerdict(outcome: .pass, reason: "the intermediate CN=App Intermediate,O=Faultline development key is pinned",
                                          entry: "network-security-config/domain-config/domain-config[2]/domain"))
        #expect(AppPinEvaluator.evaluate(app, host: "api.example.com", chain: fixture.current, at: fixture.now).outcome == .pass)
        #expect(AppPinEvaluator.evaluate(app, host: "example.org", chain: fixture.current, at: fixture.now)
            == AppPinVerdict(outcome: .notPinned, reason: "no domain-config covers example.org; base-config cannot pin"))
    }

    @Test func pinsAreNotEnforcedAfterExpiration() throws {
        let fixture = try AppPinFixture()
        let app = try read(nested(fixture, expiration: fixture.day(-1)))
        let verdict = AppPinEvaluator.evaluate(app, host: "www.example.com", chain: fixture.rotated, at: fixture.now)
        #expect(verdict.outcome == .notPinned)
        #expect(verdict.reason == "the pin-set expired on \(fixture.day(-1)); Android stops enforcing pins after its expiration")
        let before = AppPinEvaluator.evaluate(app, host: "www.example.com", chain: fixture.rotated,
                                              at: fixture.now.addingTimeInterval(-3 * 86_400))
        #expect(before.outcome == .fail)
    }

    @Test func overridePinsAnchorsBypassPinsAndDebugOverridesNeedADebuggableBuild() throws {
        let fixture = try AppPinFixture()
        let app = try read(nested(fixture, expiration: fixture.day(30)))
        let userAnchored = AppChain(served: fixture.rotatedLeaf.chain, verified: fixture.rotatedLeaf.chain + [fixture.root.certificate],
                                    anchorSource: .user)
        #expect(AppPinEvaluator.evaluate(app, host: "www.example.com", chain: userAnchored, at: fixture.now)
            .reason == "the chain ends at a user trust anchor with overridePins, so Android skips the pin-set")
        let notTrusted = AppPinEvaluator.evaluate(app, host: "api.example.com", chain: userAnchored, at: fixture.now)
        #expect(notTrusted.outcome == .fail)
        #expect(notTrusted.reason == "the chain ends at a user anchor, which this configuration does not trust (trust-anchors: system)")
        let debugAnchored = AppChain(served: fixture.rotatedLeaf.chain, verified: fixture.rotatedLeaf.chain + [fixture.root.certificate],
                                     anchorSource: .resource("@raw/debug_ca"))
        #expect(AppPinEvaluator.evaluate(app, host: "api.example.com", chain: debugAnchored, at: fixture.now).outcome == .fail)
        let debuggable = AppPinEvaluator.evaluate(app, host: "api.example.com", chain: debugAnchored, at: fixture.now, build: .debuggable)
        #expect(debuggable.outcome == .pass)
        #expect(debuggable.reason == "the chain ends at a @raw/debug_ca trust anchor with overridePins (debug-overrides, debuggable build), so Android skips the pin-set")
    }

    @Test func malformedFilesNameElementPathAndLine() throws {
        let fixture = try AppPinFixture()
        let cases: [(String, String)] = [
            ("""
             <network-security-config>
               <domain-config>
                 <domain>example.com</domain>
                 <pin-set>
                   <pin digest="SHA-256">\(fixture.leafPin)</pin>
                   <pin digest="SHA-256">\(Data(count: 20).base64EncodedString())</pin>
                 </pin-set>
               </domain-config>
             </network-security-config>
             """,
             "network_security_config.xml: network-security-config/domain-config/pin-set/pin[2]: digest length 20 does not match SHA-256's 32 bytes (line 6)"),
            ("""
             <network-security-config>
               <domain-config>
                 <domain>example.com</domain>
                 <pin-set expiration="2026-13-01"><pin digest="SHA-256">\(fixture.leafPin)</pin></pin-set>
               </domain-config>
             </network-security-config>
             """,
             "network_security_config.xml: network-security-config/domain-config/pin-set: invalid expiration date in pin-set: \"2026-13-01\" (line 4)"),
            ("""
             <network-security-config>
               <domain-config>
                 <domain>example.com</domain>
                 <pin-set><pin digest="SHA-1">\(fixture.leafPin)</pin></pin-set>
               </domain-config>
             </network-security-config>
             """,
             "network_security_config.xml: network-security-config/domain-config/pin-set/pin: unsupported pin digest algorithm: \"SHA-1\" (only SHA-256) (line 4)"),
            ("""
             <network-security-config>
               <domain-config><domain>Example.com</domain></domain-config>
               <domain-config><domain>example.com</domain></domain-config>
             </network-security-config>
             """,
             "network_security_config.xml: network-security-config/domain-config[2]/domain: example.com has already been specified (line 3)"),
            ("""
             <network-security-config>
               <base-config><pin-set/></base-config>
             </network-security-config>
             """,
             "network_security_config.xml: network-security-config/base-config/pin-set: pin-set is not allowed in base-config (line 2)"),
            ("<network-security-config>\n  <domain-config>\n  </domain-config>\n</network-security-config>\n",
             "network_security_config.xml: network-security-config/domain-config: no domain elements in domain-config (line 2)"),
            ("<network-security-config>\n  <domain-config>\n    <domain>example.com\n</network-security-config>\n",
             "network_security_config.xml: not well-formed XML (line 4)"),
        ]
        for (text, expected) in cases {
            #expect(try ATSReaderTests.error { try read(text) } == expected)
        }
    }
}
