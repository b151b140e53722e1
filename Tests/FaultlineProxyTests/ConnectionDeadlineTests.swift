import Testing
@testable import FaultlineProxy

@Suite("Connection deadlines with a stepped clock")
struct ConnectionDeadlineTests {
    private let millisecond: UInt64 = 1_000_000

    @Test func expiresExactlyAtTheDeadline() {
        var deadline = ConnectionDeadline()
        var now: UInt64 = 5_000 * millisecond
        deadline.arm(.clientHeader, now: now, milliseconds: 100)
        now += 99 * millisecond
        #expect(deadline.expired(now: now) == nil)
        now += millisecond
        #expect(deadline.expired(now: now) == .clientHeader)
    }

    @Test func rearmingMovesTheDeadlineAndChangesItsKind() {
        var deadline = ConnectionDeadline()
        var now: UInt64 = 0
        deadline.arm(.upstreamConnect, now: now, milliseconds: 50)
        now += 40 * millisecond
        deadline.arm(.upstreamResponse, now: now, milliseconds: 50)
        now += 40 * millisecond
        #expect(deadline.expired(now: now) == nil, "the connect deadline no longer applies")
        now += 10 * millisecond
        #expect(deadline.expired(now: now) == .upstreamResponse)
    }

    @Test func disarmedNeverExpires() {
        var deadline = ConnectionDeadline()
        deadline.arm(.clientIdle, now: 0, milliseconds: 1)
        deadline.disarm()
        #expect(deadline.expired(now: UInt64.max) == nil)
        #expect(deadline.kind == nil)
    }
}
