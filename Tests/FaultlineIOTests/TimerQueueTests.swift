import Testing
@testable import FaultlineIO
import FaultlineTestSupport

@Suite("Timer queue")
struct TimerQueueTests {
    @Test func firesInDeadlineOrderAndSkipsCancelled() {
        var queue = TimerQueue()
        var fired: [Int] = []
        let deadlines: [UInt64] = [50, 10, 40, 20, 30, 10]
        var ids: [TimerID] = []
        for (index, deadline) in deadlines.enumerated() {
            ids.append(queue.schedule(at: deadline) { fired.append(index) })
        }
        queue.cancel(ids[2])
        #expect(queue.nextDeadline() == 10)
        for callback in queue.popExpired(now: 25) { callback() }
        #expect(fired.sorted() == [1, 3, 5])
        fired.removeAll()
        for callback in queue.popExpired(now: 100) { callback() }
        #expect(fired == [4, 0])
        #expect(queue.isEmpty)
        #expect(queue.nextDeadline() == nil)
    }

    @Test func aCancelledEarliestTimerDoesNotSetTheNextDeadline() {
        var queue = TimerQueue()
        let early = queue.schedule(at: 5) {}
        _ = queue.schedule(at: 70) {}
        queue.cancel(early)
        #expect(queue.nextDeadline() == 70)
        #expect(queue.popExpired(now: 69).isEmpty)
        #expect(queue.popExpired(now: 70).count == 1)
        #expect(queue.isEmpty)
    }

    @Test func manyTimersComeOutSorted() {
        var queue = TimerQueue()
        var random = SplitMix64(seed: 11)
        var fired: [UInt64] = []
        let deadlines = (0..<500).map { _ in UInt64.random(in: 0..<10_000, using: &random) }
        for deadline in deadlines { _ = queue.schedule(at: deadline) { fired.append(deadline) } }
        var now: UInt64 = 0
        while !queue.isEmpty {
            now += 250
            for callback in queue.popExpired(now: now) { callback() }
        }
        // Expired timers come out earliest first, within one pop as across pops.
        #expect(fired == deadlines.sorted())
    }
}
