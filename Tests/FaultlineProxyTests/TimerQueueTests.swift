import Testing
@testable import FaultlineIO

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
}
