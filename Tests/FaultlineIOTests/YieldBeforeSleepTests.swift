import Testing
@testable import FaultlineIO

@Suite("Yield before sleep")
struct YieldBeforeSleepTests {
    private static let atOnce: UInt64 = 600
    private static let otherThreadRan: UInt64 = 40_000
    private static let timeSlice: UInt64 = 4_000_000

    @Test func aLoopAloneOnItsCoreStopsYieldingThenTriesAgain() {
        var policy = YieldBeforeSleep()
        for _ in 0..<YieldBeforeSleep.unpaidLimit {
            let yields = policy.shouldYield()
            #expect(yields)
            policy.yielded(.returnedAtOnce)
        }
        #expect(policy.phase == .resting(left: YieldBeforeSleep.restSleeps))
        #expect(Self.sleepsWithoutYield(&policy) == YieldBeforeSleep.restSleeps)
        #expect(policy.phase == .yielding(unpaid: 0, stallDebt: 0))
    }

    @Test func aYieldThatLetOthersRunKeepsTheLoopYielding() {
        var policy = YieldBeforeSleep()
        for round in 0..<100 {
            for _ in 0..<(YieldBeforeSleep.unpaidLimit - 1) {
                let yields = policy.shouldYield()
                #expect(yields, "round \(round)")
                policy.yielded(.returnedAtOnce)
            }
            let yields = policy.shouldYield()
            #expect(yields, "round \(round)")
            policy.yielded(.letOthersRun)
            #expect(policy.phase == .yielding(unpaid: 0, stallDebt: 0))
        }
    }

    /// A busy process sharing the core took the yields' time slices while an event waited: the
    /// loop sleeps (and is woken by its events) for a while instead of yielding again. Yields
    /// that returned at once, found nothing waiting, or came back early from the end of the
    /// busy process's slice (and so count as paying) do not hide the stalls.
    @Test func stallsCloseTogetherStopTheYields() {
        var policy = YieldBeforeSleep()
        for stall in 1...3 {
            let yields = policy.shouldYield()
            #expect(yields, "stall \(stall)")
            policy.yielded(.returnedAtOnce)
            policy.yielded(.nothingWaited)
            policy.yielded(.letOthersRun)
            policy.yielded(.letOthersRun)
            policy.yielded(.stalled)
        }
        #expect(policy.phase == .resting(left: YieldBeforeSleep.restSleeps))
        #expect(Self.sleepsWithoutYield(&policy) == YieldBeforeSleep.restSleeps)
        #expect(policy.phase == .yielding(unpaid: 0, stallDebt: 0))
    }

    /// On cores crowded with the loop's own clients and origin a stall is rare (a few in
    /// thousands of yields): the paying yields between them pay it off.
    @Test func rareStallsArePaidOffByTheYieldsBetweenThem() {
        var policy = YieldBeforeSleep()
        for round in 0..<1_000 {
            policy.yielded(.stalled)
            for _ in 0..<YieldBeforeSleep.stallWeight { policy.yielded(.letOthersRun) }
            #expect(policy.phase == .yielding(unpaid: 0, stallDebt: 0), "round \(round)")
        }
        policy.yielded(.stalled)
        policy.yielded(.stalled)
        for _ in 0..<9 { policy.yielded(.letOthersRun) }
        policy.yielded(.stalled)
        #expect(policy.phase == .yielding(unpaid: 0, stallDebt: 3 * YieldBeforeSleep.stallWeight - 9))
        policy.yielded(.stalled)
        #expect(policy.phase == .resting(left: YieldBeforeSleep.restSleeps))
    }

    @Test func anOutcomeReportedWhileRestingChangesNothing() {
        var policy = YieldBeforeSleep()
        for _ in 0..<3 { policy.yielded(.stalled) }
        _ = policy.shouldYield()
        policy.yielded(.letOthersRun)
        #expect(policy.phase == .resting(left: YieldBeforeSleep.restSleeps - 1))
    }

    /// Short yields are judged by their length alone; a long one by the events ready after it.
    @Test func anOutcomeFollowsTheYieldsLengthAndTheEventsReadyAfterIt() {
        #expect(YieldBeforeSleep.outcome(duration: Self.atOnce, eventsReady: 0) == .returnedAtOnce)
        #expect(YieldBeforeSleep.outcome(duration: YieldBeforeSleep.ranOtherThreadNanoseconds - 1, eventsReady: 0) == .returnedAtOnce)
        #expect(YieldBeforeSleep.outcome(duration: YieldBeforeSleep.ranOtherThreadNanoseconds, eventsReady: 0) == .letOthersRun)
        #expect(YieldBeforeSleep.outcome(duration: Self.otherThreadRan, eventsReady: 1) == .letOthersRun)
        #expect(!YieldBeforeSleep.mayHaveStalled(YieldBeforeSleep.mayHaveStalledNanoseconds - 1))
        #expect(YieldBeforeSleep.mayHaveStalled(YieldBeforeSleep.mayHaveStalledNanoseconds))
        #expect(YieldBeforeSleep.outcome(duration: Self.timeSlice, eventsReady: 1) == .stalled)
        #expect(YieldBeforeSleep.outcome(duration: Self.timeSlice, eventsReady: 0) == .nothingWaited)
        #expect(YieldBeforeSleep.outcome(duration: Self.timeSlice, eventsReady: 2) == .letOthersRun)
        #expect(YieldBeforeSleep.outcome(duration: Self.timeSlice, eventsReady: 256) == .letOthersRun)
    }

    /// Sleeps until the policy yields again; how many went without a yield.
    private static func sleepsWithoutYield(_ policy: inout YieldBeforeSleep) -> Int {
        var sleeps = 0
        while !policy.shouldYield() { sleeps += 1 }
        return sleeps
    }
}
