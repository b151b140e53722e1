import Foundation

// Launching needs Foundation's Process (Linux, macOS); iOS test targets `connect` instead.
#if FAULTLINE_LAUNCH
/// One child started by `launch` (the proxy or its demo origin): started with its output
/// collected, waited for until it prints its listening lines, and terminated (SIGTERM,
/// then SIGKILL after a grace period) when no longer needed.
final class ChildProcess: @unchecked Sendable {
    // Unchecked: `Process` is not Sendable; it is configured before `run()` and afterwards
    // only asked `isRunning`, `processIdentifier` and `terminate()`, which it makes safe.
    private let process: Process
    let output = ProcessOutput()
    /// The command, for messages.
    let commandLine: String

    /// Starts `executable` with `arguments` in `directory`.
    init(executable: String, arguments: [String], directory: URL) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.standardInput = FileHandle.nullDevice
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        commandLine = ([executable] + arguments).joined(separator: " ")
        do {
            try process.run()
        } catch {
            throw FaultlineError.launchFailed(reason: "cannot run \(commandLine): \(error)", output: "")
        }
        ChildRegistry.add(process.processIdentifier)
        // The child holds its own copy of the write end; ours must close for end of file.
        try? pipe.fileHandleForWriting.close()
        output.startReading(pipe.fileHandleForReading)
    }

    /// The child's process id.
    var pid: Int32 { process.processIdentifier }

    /// Waits until a line starting with each prefix has been printed; returns the address
    /// after each prefix, in order. Throws `launchFailed` with the output when the child
    /// exits first or `deadline` passes (`timeout` is the whole wait, for the message).
    func waitForLines(_ prefixes: [String], until deadline: ContinuousClock.Instant, timeout: Duration) async throws -> [String] {
        let clock = ContinuousClock()
        while true {
            let found = prefixes.compactMap { output.address(after: $0) }
            if found.count == prefixes.count { return found }
            if !process.isRunning {
                // Let the reader collect the last words before quoting them.
                try? await Task.sleep(for: .milliseconds(50))
                throw FaultlineError.launchFailed(reason: "\(commandLine) exited with status \(process.terminationStatus)",
                                                  output: output.snapshot)
            }
            if clock.now >= deadline {
                // A starved test process may wake up late: what arrived meanwhile still counts.
                let late = prefixes.compactMap { output.address(after: $0) }
                if late.count == prefixes.count { return late }
                terminate(grace: .seconds(1))
                throw FaultlineError.launchFailed(reason: "\(commandLine) printed no \(prefixes.map { "\"\($0)…\"" }.joined(separator: " and ")) line within \(timeout)",
                                                  output: output.snapshot)
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Sends SIGTERM without waiting, so that several children wind down together.
    func requestTermination() {
        if process.isRunning { process.terminate() }
    }

    /// SIGTERM, then SIGKILL when the child is still running after `grace`; returns once
    /// it has exited (blocking: it runs from `stop()` and `deinit`).
    func terminate(grace: Duration = .seconds(3)) {
        defer { if !process.isRunning { ChildRegistry.remove(process.processIdentifier) } }
        guard process.isRunning else { return }
        process.terminate()
        if waitForExit(within: grace) { return }
        kill(process.processIdentifier, SIGKILL)
        // SIGKILL always ends it; what is left is Foundation noticing, which on a machine
        // loaded by a parallel test run took longer than five seconds once. Bounded anyway.
        _ = waitForExit(within: .seconds(30))
    }

    private func waitForExit(within timeout: Duration) -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while process.isRunning {
            if clock.now >= deadline { return false }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return true
    }
}
#endif
