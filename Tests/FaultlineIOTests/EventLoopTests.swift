import Foundation
import Testing
import FaultlineIO
import FaultlineTestSupport
#if canImport(Glibc)
import Glibc
#endif

@Suite("Event loop", .timeLimit(.minutes(1)))
struct EventLoopTests {
    @Test func timersFireInDeadlineOrderOnTheLoopThread() throws {
        let harness = try LoopHarness()
        let fired = Recorder<(delay: Int, thread: pthread_t)>()
        let loopThread = try harness.onLoop { _ in pthread_self() }
        try harness.onLoop { loop in
            for delay in [60, 20, 40, 0, 80] {
                loop.schedule(afterMilliseconds: delay) { fired.append((delay, pthread_self())) }
            }
        }
        let all = try fired.wait("five timers") { $0.count == 5 }
        #expect(all.map(\.delay) == [0, 20, 40, 60, 80])
        #expect(all.allSatisfy { pthread_equal($0.thread, loopThread) != 0 })
    }

    @Test func aTimerNeverFiresEarly() throws {
        let harness = try LoopHarness()
        let fired = Recorder<UInt64>()
        // Taken before the loop wakes up for the task, so no later than the loop's "now".
        let start = DispatchTime.now().uptimeNanoseconds
        try harness.onLoop { loop in
            loop.schedule(afterMilliseconds: 50) { fired.append(DispatchTime.now().uptimeNanoseconds) }
        }
        let at = try fired.wait("the timer") { !$0.isEmpty }[0]
        #expect(at - start >= 50_000_000)
    }

    @Test func aCancelledTimerDoesNotFire() throws {
        let harness = try LoopHarness()
        let fired = Recorder<String>()
        try harness.onLoop { loop in
            let cancelled = loop.schedule(afterMilliseconds: 10) { fired.append("cancelled") }
            loop.schedule(afterMilliseconds: 60) { fired.append("kept") }
            loop.cancel(cancelled)
        }
        try fired.wait("the kept timer") { $0.contains("kept") }
        #expect(fired.all == ["kept"])
    }

    @Test func cancellingAFiredTimerIsHarmless() throws {
        let harness = try LoopHarness()
        let fired = Recorder<Int>()
        let first = try harness.onLoop { loop in loop.schedule(afterMilliseconds: 0) { fired.append(1) } }
        try fired.wait("the first timer") { $0 == [1] }
        try harness.onLoop { loop in
            loop.cancel(first)
            loop.schedule(afterMilliseconds: 0) { fired.append(2) }
        }
        #expect(try fired.wait("the second timer") { $0.count == 2 } == [1, 2])
    }

    @Test func tasksFromManyThreadsAllRunOnTheLoopInSubmissionOrderPerThread() throws {
        let harness = try LoopHarness()
        let loopThread = try harness.onLoop { _ in pthread_self() }
        let ran = Recorder<(sender: Int, sequence: Int, onLoop: Bool)>()
        let loop = harness.loop
        let senders = 4, perSender = 250
        for sender in 0..<senders {
            Thread {
                for sequence in 0..<perSender {
                    loop.execute { ran.append((sender, sequence, pthread_equal(pthread_self(), loopThread) != 0)) }
                }
            }.start()
        }
        let all = try ran.wait("every task") { $0.count == senders * perSender }
        #expect(all.allSatisfy { $0.onLoop })
        for sender in 0..<senders {
            #expect(all.filter { $0.sender == sender }.map(\.sequence) == Array(0..<perSender))
        }
    }

    @Test func stopEndsRun() throws {
        let loop = try EventLoop(index: 0)
        let returned = Recorder<Bool>()
        let thread = try EventLoopThread.start {
            loop.run()
            returned.append(true)
        }
        // No timer is due: unless stop() comes first, the loop sleeps in epoll_wait until it wakes it.
        loop.stop()
        try returned.wait("run() to return") { !$0.isEmpty }
        EventLoopThread.join([thread])
    }

    /// The process exits once the group has stopped: a loop still letting go of its
    /// connections then would run under the libraries' exit handlers (OpenSSL frees its
    /// global state at exit), a crash at shutdown. So `stop()` returns only once every loop has
    /// let go of what it held, here an object whose release takes 200 ms.
    @Test func groupStopReturnsOnceEveryLoopHasLetGoOfWhatItHeld() throws {
        let group = try EventLoopGroup(count: 2)
        let released = Recorder<Int>()
        let scheduled = Recorder<Int>()
        for loop in group.loops {
            loop.execute {
                let held = SlowRelease { released.append(loop.index) }
                // A timer far off holds the object until the loop drops its work.
                loop.schedule(afterMilliseconds: 600_000) { withExtendedLifetime(held) {} }
                scheduled.append(loop.index)
            }
        }
        try scheduled.wait("both loops holding their object") { $0.count == 2 }
        group.stop()
        #expect(released.all.sorted() == [0, 1], "stop() returned before the loops let go")
        group.stop()
    }
}

/// Runs `released` after a pause when it goes: a release that takes a while.
private final class SlowRelease {
    let released: () -> Void
    init(_ released: @escaping () -> Void) { self.released = released }
    deinit {
        usleep(200_000)
        released()
    }
}
