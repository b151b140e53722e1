import FaultlineTLS
import Foundation
import Testing

/// A minted PKI: root → intermediate → leaf, a backup key never deployed, and a rotated leaf.
struct PinFixture {
    let now = Date()
    let root: CertificateAuthority
    let intermediate: CertificateAuthority
    let leaf: CertificateLeaf
    let rotatedLeaf: CertificateLeaf
    let backupKey: CertificateKey

    init() throws {
        root = try CertificateMinter.rootCA(commonName: "Test Root", key: try CertificateKey.generate(),
                                            validity: .days(30, from: now))
        intermediate = try CertificateMinter.intermediateCA(commonName: "Test Intermediate", key: try CertificateKey.generate(),
                                                            issuer: root, validity: .days(30, from: now))
        leaf = try CertificateMinter.leaf(names: ["leaf.example"], key: try CertificateKey.generate(), issuer: intermediate,
                                          validity: .days(30, from: now))
        rotatedLeaf = try CertificateMinter.leaf(names: ["leaf.example"], key: try CertificateKey.generate(),
                                                 issuer: intermediate, validity: .days(30, from: now))
        backupKey = try CertificateKey.generate()
    }

    /// The verified chain as a client builds it: leaf, intermediate, root.
    var chain: [Certificate] { leaf.chain + [root.certificate] }
    var rotatedChain: [Certificate] { rotatedLeaf.chain + [root.certificate] }
    var leafPin: SPKIPinValue { leaf.certificate.pin }
    var intermediatePin: SPKIPinValue { intermediate.certificate.pin }
    var rootPin: SPKIPinValue { root.certificate.pin }
    var backupPin: SPKIPinValue { backupKey.publicKey.pin }
}

/// PinSet evaluation: positions, backup, expiry behaviours, candidate rotation.
@Suite(.timeLimit(.minutes(1)))
struct PinSetTests {
    @Test func leafIntermediateAndRootMatchesReportTheirPosition() throws {
        let fixture = try PinFixture()
        let cases: [(SPKIPinValue, CertificatePosition, String)] = [
            (fixture.leafPin, .leaf, "CN=leaf.example,O=Faultline development"),
            (fixture.intermediatePin, .intermediate, "CN=Test Intermediate,O=Faultline development"),
            (fixture.rootPin, .root, "CN=Test Root,O=Faultline development"),
        ]
        for (pin, position, subject) in cases {
            let verdict = PinSet(live: [pin, fixture.backupPin]).evaluate(chain: fixture.chain, at: fixture.now)
            #expect(verdict.passed && verdict.matched && !verdict.blocks)
            #expect(verdict.matches == [PinMatch(pin: pin, index: position == .leaf ? 0 : position == .intermediate ? 1 : 2,
                                                 position: position, subject: subject)])
            #expect(verdict.observed.map(\.position) == [.leaf, .intermediate, .root])
            #expect(verdict.observed.map(\.pin) == [fixture.leafPin, fixture.intermediatePin, fixture.rootPin])
            #expect(verdict.candidate == nil)
        }
    }

    @Test func backupOnlyMatchAfterTheKeyMoved() throws {
        let fixture = try PinFixture()
        let backupLeaf = try CertificateMinter.leaf(names: ["leaf.example"], key: fixture.backupKey, issuer: fixture.intermediate,
                                                    validity: .days(30, from: fixture.now))
        let verdict = PinSet(live: [fixture.leafPin, fixture.backupPin])
            .evaluate(chain: backupLeaf.chain + [fixture.root.certificate], at: fixture.now)
        #expect(verdict.passed)
        #expect(verdict.matches.map(\.pin) == [fixture.backupPin])
        #expect(verdict.matches.first?.position == .leaf)
    }

    @Test func noMatchFailsAndBlocksOnlyInEnforce() throws {
        let fixture = try PinFixture()
        let enforce = PinSet(live: [fixture.backupPin]).evaluate(chain: fixture.chain, at: fixture.now)
        #expect(!enforce.passed && !enforce.matched && enforce.blocks && enforce.matches.isEmpty)
        #expect(enforce.observed.count == 3)
        let report = PinSet(live: [fixture.backupPin], mode: .report).evaluate(chain: fixture.chain, at: fixture.now)
        #expect(!report.passed && !report.blocks)
        let off = PinSet(live: [fixture.backupPin], mode: .off).evaluate(chain: fixture.chain, at: fixture.now)
        #expect(off.passed && !off.matched && !off.blocks)
    }

    @Test func expiredSetBehavesAsConfigured() throws {
        let fixture = try PinFixture()
        let yesterday = fixture.now.addingTimeInterval(-86_400)
        let unpinned = PinSet(live: [fixture.backupPin], expires: yesterday, onExpiry: .unpinned)
            .evaluate(chain: fixture.chain, at: fixture.now)
        #expect(unpinned.expired && unpinned.passed && !unpinned.matched && !unpinned.blocks)
        #expect(unpinned.effectiveMode == .off)
        let enforced = PinSet(live: [fixture.backupPin], expires: yesterday, onExpiry: .enforce)
            .evaluate(chain: fixture.chain, at: fixture.now)
        #expect(enforced.expired && !enforced.passed && enforced.blocks)
        let tomorrow = PinSet(live: [fixture.backupPin], expires: fixture.now.addingTimeInterval(86_400))
            .evaluate(chain: fixture.chain, at: fixture.now)
        #expect(!tomorrow.expired && tomorrow.blocks)
    }

    @Test func candidateRotation() throws {
        let fixture = try PinFixture()
        let rotatedPin = fixture.rotatedLeaf.certificate.pin
        let set = PinSet(live: [fixture.leafPin, fixture.backupPin], candidate: [rotatedPin, fixture.backupPin])
        // Before the rotation: live passes, the candidate would not (yet).
        let before = set.evaluate(chain: fixture.chain, at: fixture.now)
        #expect(before.passed)
        #expect(before.candidate == PinCandidateVerdict(passed: false, matches: []))
        // After: the live set fails, the candidate passes on the rotated leaf.
        let after = set.evaluate(chain: fixture.rotatedChain, at: fixture.now)
        #expect(!after.passed && after.blocks)
        #expect(after.candidate?.passed == true)
        #expect(after.candidate?.matches.map(\.position) == [.leaf])
        #expect(after.candidate?.matches.map(\.pin) == [rotatedPin])
    }

    @Test func positionsOfAChainWithoutItsRoot() throws {
        let fixture = try PinFixture()
        #expect(CertificatePosition.positions(of: fixture.leaf.chain) == [.leaf, .intermediate])
        #expect(CertificatePosition.positions(of: [fixture.root.certificate]) == [.leaf])
        #expect(CertificatePosition.positions(of: []) == [])
    }
}
