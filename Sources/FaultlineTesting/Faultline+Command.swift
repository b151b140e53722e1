import Foundation

// Launching is for Linux and macOS; iOS test targets `connect` instead.
#if FAULTLINE_LAUNCH
extension Faultline {
    /// Runs one `faultline` command to its end (`scenario from-har …`, `check-config …`),
    /// the binary found as `launch` finds it, in the current directory; returns what it
    /// printed (stdout and stderr together, the last 64 KiB). Throws `launchFailed` with
    /// that output when it exits non-zero, or when it still runs after `timeout` (it is
    /// killed then).
    @discardableResult
    public static func runCommand(_ arguments: [String], binary: String? = nil,
                                  timeout: Duration = .seconds(60)) async throws -> String {
        let executable = try BinaryLocator.locate(explicit: binary)
        let child = try ChildProcess(executable: executable, arguments: arguments,
                                     directory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        guard let status = await child.waitForExit(until: ContinuousClock.now + timeout) else {
            child.terminate(grace: .seconds(1))
            throw FaultlineError.launchFailed(reason: "\(child.commandLine) still ran after \(timeout)", output: child.output.snapshot)
        }
        guard status == 0 else {
            throw FaultlineError.launchFailed(reason: "\(child.commandLine) exited with status \(status)", output: child.output.snapshot)
        }
        return child.output.snapshot
    }
}
#endif
