import Testing
@testable import FaultlineIO

@Suite("Yield before sleep")
struct YieldBeforeSleepTests {
    private static let atOnce: UInt64 = 600
    private static let otherThreadRan: UInt64 = 40_000

    @Test func aLoopAloneOnItsCoreStopsYieldingThenTriesAgain() {
        var policy = YieldBeforeSleep()
        for _ in 0..<YieldBeforeSleep.unpaidLimit {
            let yields = policy.shouldYield()
            #expect(yields)
            policy.yielded(for: Self.atOnce)
        }
        #expect(policy.phase == .resting(left: YieldBeforeSleep.restSleeps))
        var sleepsWithoutYield = 0
        while !policy.shouldYield() { sleepsWithoutYield += 1 }
        #expect(sleepsWithoutYield == YieldBeforeSleep.restSleeps)
        #expect(policy.phase == .yielding(unpaid: 0))
    }

    @Test func aYieldThatLetAnotherThreadRunKeepsTheLoopYielding() {
        var policy = YieldBeforeSleep()
        for round in 0..<100 {
            for _ in 0..<(YieldBeforeSleep.unpaidLimit - 1) {
                let yields = policy.shouldYield()
                #expect(yields, "round \(round)")
                policy.yielded(for: Self.atOnce)
            }
            let yields = policy.shouldYield()
            #expect(yields, "round \(round)")
            policy.yielded(for: Self.otherThreadRan)
            #expect(policy.phase == .yielding(unpaid: 0))
        }
    }

    @Test func theThresholdSeparatesALoneYieldFromAnotherThreadsSlice() {
        var policy = YieldBeforeSleep()
        policy.yielded(for: YieldBeforeSleep.ranOtherThreadNanoseconds - 1)
        #expect(policy.phase == .yielding(unpaid: 1))
        policy.yielded(for: YieldBeforeSleep.ranOtherThreadNanoseconds)
        #expect(policy.phase == .yielding(unpaid: 0))
    }
}
