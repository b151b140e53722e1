import Foundation
import FaultlineTesting
#if canImport(Glibc)
import Glibc
#endif

/// A child process whose stdout and stderr go, merged, into an `OutputLog` line by line
/// (or elsewhere, as `Stream` says). It is killed (SIGKILL) when dropped, so a failing test
/// never leaves it behind. Started with posix_spawn (`Subprocess`), not Foundation's
/// `Process`, whose launch crashed a test run under load on this toolchain.
public final class ChildProcess: Sendable {
    /// Where one of the child's output streams goes.
    public enum Stream: Sendable {
        /// Into `output`, line by line.
        case log
        /// To /dev/null.
        case discard
        /// Into a pipe that this side holds open and never reads: it fills after 64 KiB,
        /// and from then on the child's writes block.
        case unreadPipe
    }

    private let process: Subprocess
    /// Pipe ends held open for the child's lifetime (`unreadPipe`, a held stdin).
    private let heldDescriptors: [Int32]
    /// Its merged stdout and stderr (the streams that go to `.log`), line by line.
    public let output = OutputLog()
    /// The path it was started from.
    public let executable: String

    /// Starts `executable` with `arguments` (in `directory`, if given). Its stdin is
    /// /dev/null, or with `holdStandardInput` a pipe held open and never written, for a
    /// tool that ends at end of input.
    public init(executable: String, arguments: [String], directory: URL? = nil,
                standardOutput: Stream = .log, standardError: Stream = .log,
                holdStandardInput: Bool = false) throws {
        self.executable = executable
        var parentEnds: [Int32] = [], childEnds: [Int32] = []
        defer { childEnds.forEach { close($0) } }
        var logPipe: (read: Int32, write: Int32)?
        func destination(_ stream: Stream) throws -> Int32? {
            switch stream {
            case .discard:
                return nil
            case .log:
                if let logPipe { return logPipe.write }
                let pipe = try Subprocess.pipe()
                logPipe = pipe
                childEnds.append(pipe.write)
                return pipe.write
            case .unreadPipe:
                let pipe = try Subprocess.pipe()
                parentEnds.append(pipe.read)
                childEnds.append(pipe.write)
                return pipe.write
            }
        }
        do {
            var stdin: Int32?
            if holdStandardInput {
                let pipe = try Subprocess.pipe()
                parentEnds.append(pipe.write)
                childEnds.append(pipe.read)
                stdin = pipe.read
            }
            process = try Subprocess(executable: executable, arguments: arguments, directory: directory?.path,
                                     stdin: stdin, stdout: destination(standardOutput), stderr: destination(standardError))
        } catch {
            parentEnds.forEach { close($0) }
            if let logPipe { close(logPipe.read) }
            throw TestFailure("cannot start \(executable): \(error)")
        }
        heldDescriptors = parentEnds
        if let logPipe { output.startReading(FileHandle(fileDescriptor: logPipe.read, closeOnDealloc: true)) }
    }

    /// The child's process id.
    public var pid: Int32 { process.pid }
    /// Whether the child still runs.
    public var isRunning: Bool { process.isRunning }

    /// Sends `signal` to the child while it runs.
    public func signal(_ signal: Int32) {
        process.send(signal)
    }

    /// Waits for the child to exit and returns its exit status (or 128 + signal).
    public func waitForExit(timeout: Duration) async throws -> Int32 {
        try await Deadline.poll("\(executable) to exit; output:\n\(output.text)", timeout: timeout) {
            process.exitStatus
        }
    }

    /// Kills the child at once if it still runs.
    public func kill() {
        process.send(SIGKILL)
    }

    deinit {
        kill()
        // Collect the exit, so that no zombie is left for the length of the test run.
        process.waitForExit(timeout: .seconds(5))
        heldDescriptors.forEach { close($0) }
    }
}
