import FaultlineTLS
import Foundation
import Testing

/// Warnings a pin set deserves.
@Suite(.timeLimit(.minutes(1)))
struct PinWarningsTests {
    @Test func aGoodSetHasNoWarnings() throws {
        let fixture = try PinFixture()
        let warnings = PinWarnings.evaluate(live: [fixture.leafPin, fixture.backupPin], expires: nil, now: fixture.now,
                                            chain: fixture.chain)
        #expect(warnings == [])
    }

    @Test func fewerThanTwoPins() throws {
        let fixture = try PinFixture()
        let warnings = PinWarnings.evaluate(live: [fixture.leafPin, fixture.leafPin], expires: nil, now: fixture.now)
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("only 1 distinct pin") == true)
    }

    @Test func noPinOutsideTheServedChain() throws {
        let fixture = try PinFixture()
        let warnings = PinWarnings.evaluate(live: [fixture.leafPin, fixture.intermediatePin], expires: nil, now: fixture.now,
                                            chain: fixture.chain)
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("no backup pin") == true)
    }

    @Test func matchesOnlyOnCAs() throws {
        let fixture = try PinFixture()
        let warnings = PinWarnings.evaluate(live: [fixture.intermediatePin, fixture.backupPin], expires: nil,
                                            now: fixture.now, chain: fixture.chain)
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("pins match only the intermediate") == true)
        let root = PinWarnings.evaluate(live: [fixture.rootPin, fixture.intermediatePin, fixture.backupPin], expires: nil,
                                        now: fixture.now, chain: fixture.chain)
        #expect(root.contains { $0.contains("intermediate and root") })
    }

    @Test func expiringAndExpired() throws {
        let fixture = try PinFixture()
        let pins = [fixture.leafPin, fixture.backupPin]
        let soon = PinWarnings.evaluate(live: pins, expires: fixture.now.addingTimeInterval(10 * 86_400), now: fixture.now)
        #expect(soon.count == 1 && soon.first?.contains("(in 10 days)") == true)
        let later = PinWarnings.evaluate(live: pins, expires: fixture.now.addingTimeInterval(31 * 86_400), now: fixture.now)
        #expect(later.isEmpty)
        let june = try #require(ISO8601DateFormatter().date(from: "2026-06-01T00:00:00Z"))
        let after = june.addingTimeInterval(3600)
        #expect(PinWarnings.evaluate(live: pins, expires: june, now: after)
            == ["pin set expired on 2026-06-01: behaving as `unpinned`"])
        #expect(PinWarnings.evaluate(live: pins, expires: june, now: after, onExpiry: .enforce)
            == ["pin set expired on 2026-06-01: behaving as `enforce`"])
        let policy = PinPolicy(live: pins, candidate: [fixture.backupPin], expires: june, onExpiry: .enforce)
        #expect(PinWarnings.evaluate(policy: policy, now: after).count == 2)
    }
}
