import Foundation
import Testing
import FaultlineLog
import FaultlineTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Operator events on stderr: queued, written by a thread of their own, rate-limited, and
/// never blocking the caller.
@Suite("Operator event queue", .timeLimit(.minutes(1)))
struct OperatorEventQueueTests {
    private static func pipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        guard Glibc.pipe(&fds) == 0 else { throw TestFailure("pipe() failed") }
        return (fds[0], fds[1])
    }

    private static func readAvailable(_ fd: Int32) -> String {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count <= 0 { break }
            out += buffer[0..<count]
        }
        return String(decoding: out, as: UTF8.self)
    }

    @Test func overTheRateLinesAreDroppedAndTheNextLineSaysHowMany() throws {
        let (readEnd, writeEnd) = try Self.pipe()
        defer { close(readEnd); close(writeEnd) }
        let queue = try OperatorEventQueue(fd: writeEnd, ratePerSecond: 1, burst: 10)
        var accepted = 0
        for index in 0..<100 where queue.write("event \(index)") { accepted += 1 }
        #expect(accepted >= 10 && accepted <= 12, "a burst of 10, then 1 a second: \(accepted)")
        #expect(queue.droppedCount == 100 - accepted)
        Thread.sleep(forTimeInterval: 1.1)
        #expect(queue.write("after the pause"))
        // Generous: under a sanitizer with every suite running at once the writer thread may wait its turn for seconds.
        #expect(queue.flush(timeout: 30))
        let text = Self.readAvailable(readEnd)
        #expect(text.hasPrefix("event 0\nevent 1\n"), "\(text)")
        #expect(text.contains("faultline: \(100 - accepted) operator event(s) dropped") && text.hasSuffix("after the pause\n"), "\(text)")
        #expect(queue.close(timeout: 30), "the writer thread did not stop")
    }

    @Test func aStalledDestinationNeverBlocksTheCaller() throws {
        let (readEnd, writeEnd) = try Self.pipe()
        defer { close(readEnd); close(writeEnd) }
        let queue = try OperatorEventQueue(fd: writeEnd, ratePerSecond: 1_000_000, burst: 1_000_000, maxLines: 100)
        let line = String(repeating: "x", count: 1000)
        let started = ContinuousClock.now
        // About 10 MB to a pipe nobody reads: it fills at 64 KiB, then the queue, then lines go.
        for _ in 0..<10_000 { queue.write(line) }
        #expect(ContinuousClock.now - started < .seconds(2), "the caller waited for the pipe")
        #expect(queue.droppedCount > 9000, "\(queue.droppedCount)")
        #expect(!queue.flush(timeout: 0.1), "nothing reads the pipe, so the queue cannot drain")
        // The writer must be gone before the descriptors close: a stray writer would pour
        // what is left into whatever file reuses the number (another test's pipe or socket).
        // Reading keeps the pipe moving until the writer has written or dropped everything.
        let deadline = ContinuousClock.now + .seconds(30)
        var stopped = false
        while !stopped && ContinuousClock.now < deadline {
            _ = Self.readAvailable(readEnd)
            stopped = queue.close(timeout: 0.01)
        }
        #expect(stopped, "the writer thread did not stop")
    }
}
