import Foundation
import Testing
import FaultlineLog
import FaultlineTestSupport
#if canImport(Glibc)
import Glibc
#endif

@Suite("Log sink")
struct LogSinkTests {
    private func line(_ text: String) -> [UInt8] { Array((text + "\n").utf8) }

    @Test func writesRecordsToAFileWithMode0640() throws {
        let scratch = try TemporaryDirectory(prefix: "faultline-log")
        defer { scratch.remove() }
        let path = scratch.path + "/nested/dir/f.jsonl"
        let sink = try LogSink(destination: .file(path: path), format: "auto")
        #expect(sink.format == .json)
        #expect(!sink.isTerminal)
        for index in 0..<100 { #expect(sink.write(line: line("\(index)"))) }
        var record = LogRecord()
        record.setTarget("/x?token=t", policy: LogPolicy())
        sink.write(record)
        #expect(sink.flush(timeout: 5))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 101)
        #expect(lines.first == "0" && lines[99] == "99")
        #expect(lines.last?.contains(#""url.query":"token=[REDACTED]""#) == true)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode.map { $0 & 0o777 & ~0o640 } == 0)
        #expect(sink.close(timeout: 5))
        #expect(!sink.write(line: line("late")))
        #expect(sink.droppedCount == 1)
    }

    @Test func reopenAfterRenameWritesToTheNewFile() throws {
        let scratch = try TemporaryDirectory(prefix: "faultline-log")
        defer { scratch.remove() }
        let path = scratch.path + "/f.log"
        let sink = try LogSink(destination: .file(path: path), format: "json")
        sink.write(line: line("before"))
        #expect(sink.flush(timeout: 5))
        try FileManager.default.moveItem(atPath: path, toPath: path + ".1")
        sink.write(line: line("still old"))
        #expect(sink.flush(timeout: 5))
        try sink.reopen()
        sink.write(line: line("after"))
        #expect(sink.flush(timeout: 5))
        #expect(try String(contentsOfFile: path + ".1", encoding: .utf8) == "before\nstill old\n")
        // A failed write(2) still counts as flushed: say so if the line is missing.
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "after\n",
                "failed writes \(sink.failedWriteCount), last errno \(sink.lastWriteErrno)")
        // A failed reopen (the path is now a directory) throws and keeps the old file.
        try FileManager.default.moveItem(atPath: path, toPath: path + ".2")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        #expect(throws: LogSinkError.self) { try sink.reopen() }
        sink.write(line: line("kept"))
        #expect(sink.flush(timeout: 5))
        #expect(try String(contentsOfFile: path + ".2", encoding: .utf8) == "after\nkept\n",
                "failed writes \(sink.failedWriteCount), last errno \(sink.lastWriteErrno)")
        #expect(sink.close(timeout: 5))
    }

    @Test func unwritablePathErrorNamesPathAndReason() throws {
        let scratch = try TemporaryDirectory(prefix: "faultline-log")
        defer { scratch.remove() }
        do {
            _ = try LogSink(destination: .file(path: scratch.path), format: "json")
            Issue.record("a directory was accepted as a log file")
        } catch {
            #expect(error.message == "cannot open log file \"\(scratch.path)\": Is a directory")
        }
        try Data().write(to: URL(fileURLWithPath: scratch.path + "/file"))
        do {
            _ = try LogSink(destination: .file(path: scratch.path + "/file/x.log"), format: "json")
            Issue.record("a path under a regular file was accepted")
        } catch {
            #expect(error.message == "cannot open log file \"\(scratch.path)/file/x.log\": Not a directory")
            #expect(error.path == scratch.path + "/file/x.log")
            #expect(error.code == ENOTDIR)
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aPipeNobodyReadsDropsInsteadOfBlocking() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let (readEnd, writeEnd) = (fds[0], fds[1])
        // Each end is closed exactly once, on every path: a second close could hit a
        // descriptor another test running beside this one has just been given that number.
        var readEndOpen = true
        defer {
            if readEndOpen { close(readEnd) }
            close(writeEnd)
        }
        let sink = try LogSink(destination: .fileDescriptor(writeEnd), format: "json", maxRecords: 100, maxBytes: 1 << 20)
        let payload = Array(repeating: UInt8(ascii: "x"), count: 4095) + [10]
        let start = ContinuousClock.now
        var accepted = 0
        for _ in 0..<2000 where sink.write(line: payload) { accepted += 1 }
        let elapsed = ContinuousClock.now - start
        #expect(elapsed < .seconds(2), "writes took \(elapsed)")
        #expect(accepted < 2000)
        #expect(sink.droppedCount == 2000 - accepted)
        #expect(sink.droppedCount > 1000)
        #expect(!sink.flush(timeout: 0.05))
        // Unblock the writer: a reader closing gives the writer EPIPE (SIGPIPE is blocked on its thread).
        close(readEnd)
        readEndOpen = false
        #expect(sink.close(timeout: 10))
        #expect(sink.failedWriteCount >= 1)
        #expect(sink.lastWriteErrno == EPIPE)
    }
}
