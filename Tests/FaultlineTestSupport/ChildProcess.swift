import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process whose stdout and stderr go, merged, into an `OutputLog` line by line.
/// It is killed (SIGKILL) when dropped, so a failing test never leaves it behind.
public final class ChildProcess: @unchecked Sendable {
    /// The running process.
    public let process: Process
    /// Its merged stdout and stderr, line by line.
    public let output = OutputLog()
    /// The path it was started from.
    public let executable: String

    /// Starts `executable` with `arguments` (in `directory`, if given), stdin from /dev/null.
    public init(executable: String, arguments: [String], directory: URL? = nil) throws {
        self.executable = executable
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        process.standardInput = FileHandle.nullDevice
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        self.process = process
        try process.run()
        // Close our copy of the write end so the reader sees EOF when the child exits.
        try? pipe.fileHandleForWriting.close()
        output.startReading(pipe.fileHandleForReading)
    }

    /// The child's process id.
    public var pid: Int32 { process.processIdentifier }
    /// Whether the child still runs.
    public var isRunning: Bool { process.isRunning }

    /// Sends `signal` to the child.
    public func signal(_ signal: Int32) {
        if process.isRunning { _ = Glibc.kill(pid, signal) }
    }

    /// Waits for the child to exit and returns its exit status (or 128 + signal).
    public func waitForExit(timeout: Duration) async throws -> Int32 {
        try await Deadline.poll("\(executable) to exit; output:\n\(output.text)", timeout: timeout) {
            process.isRunning ? nil : ()
        }
        return process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
    }

    /// Kills the child at once if it still runs.
    public func kill() {
        if process.isRunning { _ = Glibc.kill(pid, SIGKILL) }
    }

    deinit { kill() }
}
