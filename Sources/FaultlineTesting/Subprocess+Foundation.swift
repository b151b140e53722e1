import Foundation

// Outside Linux (macOS), Foundation's `Process` has no known defect, so `Subprocess` is a
// thin layer over it with the same interface as the posix_spawn one.
#if FAULTLINE_LAUNCH && !os(Linux)
/// One child process, started by Foundation's `Process` with the standard streams given
/// (or /dev/null). Shared with the project's own test support (package access), not part
/// of the library.
package final class Subprocess: @unchecked Sendable {
    // Unchecked: `Process` is configured before `run()` and afterwards only asked
    // `isRunning`, `terminationStatus` and `terminationReason`, which it makes safe.
    private let process = Process()

    /// The child's process id.
    package let pid: pid_t

    /// Starts `executable` with `arguments`, in `directory` when given, with `stdin`,
    /// `stdout` and `stderr` as its standard streams (nil: /dev/null); the caller still owns
    /// and closes those descriptors.
    package init(executable: String, arguments: [String], directory: String? = nil,
                 stdin: Int32? = nil, stdout: Int32? = nil, stderr: Int32? = nil) throws(SubprocessError) {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        func handle(_ fd: Int32?) -> FileHandle {
            fd.map { FileHandle(fileDescriptor: $0, closeOnDealloc: false) } ?? FileHandle.nullDevice
        }
        process.standardInput = handle(stdin)
        process.standardOutput = handle(stdout)
        process.standardError = handle(stderr)
        do { try process.run() } catch { throw SubprocessError("cannot run \(executable): \(error)") }
        pid = process.processIdentifier
    }

    /// Whether the child still runs.
    package var isRunning: Bool { process.isRunning }

    /// The exit status, or 128 + the signal that ended the child; nil while it runs.
    package var exitStatus: Int32? {
        guard !process.isRunning else { return nil }
        return process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
    }

    /// Sends `signal` while the child runs.
    package func send(_ signal: Int32) {
        if process.isRunning { _ = kill(pid, signal) }
    }

    /// Blocks until the child has exited, or `timeout` passed; returns its exit status, nil
    /// when it still runs.
    @discardableResult
    package func waitForExit(timeout: Duration) -> Int32? {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while process.isRunning {
            if clock.now >= deadline { return nil }
            usleep(5_000)
        }
        return exitStatus
    }

    /// A pipe whose two ends are closed on exec, so that only the child given an end (as a
    /// standard stream) holds it.
    package static func pipe() throws(SubprocessError) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        guard Darwin.pipe(&ends) == 0 else { throw SubprocessError("pipe failed: errno \(errno)") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }
}
#endif
