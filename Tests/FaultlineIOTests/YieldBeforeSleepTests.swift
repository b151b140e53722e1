import Testing
@testable import FaultlineIO

@Suite("Yield before sleep")
struct YieldBeforeSleepTests {
    @Test func aLoopAloneOnItsCoreStopsYieldingThenTriesAgain() {
        var policy = YieldBeforeSleep()
        for _ in 0..<YieldBeforeSleep.unpaidLimit {
            let yields = policy.shouldYield()
            #expect(yields)
            policy.yielded(.returnedAtOnce)
        }
        #expect(policy.phase == .resting(left: YieldBeforeSleep.restSleeps))
        #expect(Self.sleepsWithoutYield(&policy) == YieldBeforeSleep.restSleeps)
        #expect(policy.phase == .yielding(unpaid: 0))
    }

    @Test func aYieldThatBroughtEventsKeepsTheLoopYielding() {
        var policy = YieldBeforeSleep()
        for round in 0..<100 {
            for _ in 0..<(YieldBeforeSleep.unpaidLimit - 1) {
                let yields = policy.shouldYield()
                #expect(yields, "round \(round)")
                policy.yielded(.returnedAtOnce)
            }
            let yields = policy.shouldYield()
            #expect(yields, "round \(round)")
            policy.yielded(.broughtEvents)
            #expect(policy.phase == .yielding(unpaid: 0))
        }
    }

    /// A busy process sharing the core took the yield's time slice and brought nothing: the
    /// loop sleeps (and is woken by its events) for a while instead of yielding again.
    @Test func aYieldThatRanUnrelatedWorkStopsTheYieldsAtOnce() {
        var policy = YieldBeforeSleep()
        policy.yielded(.broughtEvents)
        policy.yielded(.returnedAtOnce)
        let yields = policy.shouldYield()
        #expect(yields)
        policy.yielded(.ranUnrelatedWork)
        #expect(policy.phase == .resting(left: YieldBeforeSleep.restSleeps))
        #expect(Self.sleepsWithoutYield(&policy) == YieldBeforeSleep.restSleeps)
        #expect(policy.phase == .yielding(unpaid: 0))
    }

    @Test func aResultReportedWhileRestingChangesNothing() {
        var policy = YieldBeforeSleep()
        policy.yielded(.ranUnrelatedWork)
        _ = policy.shouldYield()
        policy.yielded(.broughtEvents)
        #expect(policy.phase == .resting(left: YieldBeforeSleep.restSleeps - 1))
    }

    @Test func theThresholdSeparatesALoneYieldFromAnotherThreadsSlice() {
        #expect(!YieldBeforeSleep.letAnotherThreadRun(YieldBeforeSleep.ranOtherThreadNanoseconds - 1))
        #expect(YieldBeforeSleep.letAnotherThreadRun(YieldBeforeSleep.ranOtherThreadNanoseconds))
        #expect(!YieldBeforeSleep.letAnotherThreadRun(600))
        #expect(YieldBeforeSleep.letAnotherThreadRun(40_000))
    }

    /// Sleeps until the policy yields again; how many went without a yield.
    private static func sleepsWithoutYield(_ policy: inout YieldBeforeSleep) -> Int {
        var sleeps = 0
        while !policy.shouldYield() { sleeps += 1 }
        return sleeps
    }
}
