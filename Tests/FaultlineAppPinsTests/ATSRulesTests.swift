import FaultlineAppPins
import FaultlineTLS
import Foundation
import Testing

/// ATS semantics: leaf identities match the leaf only, CA identities any CA certificate of
/// the verified chain, both kinds set means both must match; NSIncludesSubdomains covers
/// one label below the domain.
@Suite(.timeLimit(.minutes(1)))
struct ATSRulesTests {
    private func configuration(_ fixture: AppPinFixture, includesSubdomains: Bool = false, leaf: [String]?,
                               ca: [String]?) throws -> AppPinConfiguration {
        let text = PlistText.ats(domain: "api.example.com", includesSubdomains: includesSubdomains, leaf: leaf, ca: ca)
        return try ATSPlistReader.read(data: Data(text.utf8), file: "Info.plist")
    }

    @Test func leafOnlyPinFailsAcrossALeafKeyRotation() throws {
        let fixture = try AppPinFixture()
        let app = try configuration(fixture, leaf: [fixture.leafPin, fixture.backupPin], ca: nil)
        let before = AppPinEvaluator.evaluate(app, host: "api.example.com", chain: fixture.current, at: fixture.now)
        #expect(before == AppPinVerdict(outcome: .pass, reason: "the leaf key is pinned",
                                        entry: "NSAppTransportSecurity.NSPinnedDomains[\"api.example.com\"]"))
        let after = AppPinEvaluator.evaluate(app, host: "api.example.com", chain: fixture.rotated, at: fixture.now)
        #expect(after.outcome == .fail)
        #expect(after.reason == "pins only leaf keys; the chain's leaf key is not among them")
        #expect(after.outcome.blocks && after.outcome.label == "FAIL")
    }

    @Test func leafIdentityNamingTheIntermediateNeverMatches() throws {
        let fixture = try AppPinFixture()
        let app = try configuration(fixture, leaf: [fixture.intermediatePin], ca: nil)
        let verdict = AppPinEvaluator.evaluate(app, host: "api.example.com", chain: fixture.current, at: fixture.now)
        #expect(verdict.outcome == .fail)
        #expect(verdict.reason == "pins only leaf keys; the chain's leaf key is not among them (a leaf identity matches the intermediate CN=App Intermediate,O=Faultline development, but ATS compares leaf identities with the leaf only)")
    }

    @Test func caPinOnTheIntermediateFailsAfterAnIntermediateSwapButARootPinHolds() throws {
        let fixture = try AppPinFixture()
        let intermediateApp = try configuration(fixture, leaf: nil, ca: [fixture.intermediatePin])
        #expect(AppPinEvaluator.evaluate(intermediateApp, host: "api.example.com", chain: fixture.current, at: fixture.now)
            .reason == "a CA key is pinned (intermediate CN=App Intermediate,O=Faultline development)")
        let swapped = AppPinEvaluator.evaluate(intermediateApp, host: "api.example.com", chain: fixture.swapped, at: fixture.now)
        #expect(swapped.outcome == .fail)
        #expect(swapped.reason == "pins only CA keys; no CA certificate of the verified chain has one of them")
        let rootApp = try configuration(fixture, leaf: nil, ca: [fixture.rootPin])
        let viaRoot = AppPinEvaluator.evaluate(rootApp, host: "api.example.com", chain: fixture.swapped, at: fixture.now)
        #expect(viaRoot.outcome == .pass)
        #expect(viaRoot.reason == "a CA key is pinned (root CN=App Root,O=Faultline development)")
    }

    @Test func caIdentityNamingTheLeafNeverMatches() throws {
        let fixture = try AppPinFixture()
        let app = try configuration(fixture, leaf: nil, ca: [fixture.leafPin])
        let verdict = AppPinEvaluator.evaluate(app, host: "api.example.com", chain: fixture.current, at: fixture.now)
        #expect(verdict.reason == "pins only CA keys; no CA certificate of the verified chain has one of them (a CA identity matches the leaf, but ATS compares CA identities with CA certificates only)")
    }

    @Test func bothKindsSetMeansBothMustMatch() throws {
        let fixture = try AppPinFixture()
        let app = try configuration(fixture, leaf: [fixture.leafPin], ca: [fixture.intermediatePin])
        let both = AppPinEvaluator.evaluate(app, host: "api.example.com", chain: fixture.current, at: fixture.now)
        #expect(both.outcome == .pass)
        #expect(both.reason == "the leaf key and a CA key (intermediate CN=App Intermediate,O=Faultline development) are both pinned, as ATS requires when both are set")
        let onlyCA = AppPinEvaluator.evaluate(app, host: "api.example.com", chain: fixture.rotated, at: fixture.now)
        #expect(onlyCA.outcome == .fail)
        #expect(onlyCA.reason == "pins leaf and CA keys and ATS requires both; the CA key matches (intermediate CN=App Intermediate,O=Faultline development) but the leaf key is not among the leaf identities")
        let onlyLeaf = AppPinEvaluator.evaluate(app, host: "api.example.com", chain: fixture.swapped, at: fixture.now)
        #expect(onlyLeaf.outcome == .fail)
        #expect(onlyLeaf.reason == "pins leaf and CA keys and ATS requires both; the leaf key matches but no CA certificate's key is among the CA identities")
    }

    @Test func includesSubdomainsCoversOneLabelBelowOnly() throws {
        let fixture = try AppPinFixture()
        let text = PlistText.ats(domain: "example.com", includesSubdomains: true, leaf: [fixture.rotatedLeafPin], ca: nil)
        let app = try ATSPlistReader.read(data: Data(text.utf8), file: "Info.plist")
        #expect(AppPinEvaluator.evaluate(app, host: "example.com", chain: fixture.current, at: fixture.now).outcome == .fail)
        #expect(AppPinEvaluator.evaluate(app, host: "WWW.Example.com.", chain: fixture.current, at: fixture.now).outcome == .fail)
        let deeper = AppPinEvaluator.evaluate(app, host: "a.b.example.com", chain: fixture.current, at: fixture.now)
        #expect(deeper == AppPinVerdict(outcome: .notPinned, reason: "no NSPinnedDomains entry covers a.b.example.com"))
        let exactOnly = try configuration(fixture, leaf: [fixture.rotatedLeafPin], ca: nil)
        #expect(AppPinEvaluator.evaluate(exactOnly, host: "www.api.example.com", chain: fixture.current, at: fixture.now).outcome
            == .notPinned)
    }

    @Test func emptyLeafListRefusesEveryChain() throws {
        let fixture = try AppPinFixture()
        let app = try configuration(fixture, leaf: [], ca: nil)
        let verdict = AppPinEvaluator.evaluate(app, host: "api.example.com", chain: fixture.current, at: fixture.now)
        #expect(verdict.outcome == .fail)
    }
}
