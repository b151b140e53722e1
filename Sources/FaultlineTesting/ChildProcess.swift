import Foundation

// Launching is for Linux and macOS; iOS test targets `connect` instead.
#if FAULTLINE_LAUNCH
/// One child started by `launch` (the proxy or its demo origin): started with its output
/// collected, waited for until it prints its listening lines, and terminated (SIGTERM,
/// then SIGKILL after a grace period) when no longer needed.
final class ChildProcess: Sendable {
    private let process: Subprocess
    let output = ProcessOutput()
    /// The command, for messages.
    let commandLine: String

    /// Starts `executable` with `arguments` in `directory`.
    init(executable: String, arguments: [String], directory: URL) throws {
        commandLine = ([executable] + arguments).joined(separator: " ")
        let pipe: (read: Int32, write: Int32)
        do {
            pipe = try Subprocess.pipe()
            defer { close(pipe.write) }
            do {
                process = try Subprocess(executable: executable, arguments: arguments, directory: directory.path,
                                         stdout: pipe.write, stderr: pipe.write)
            } catch {
                close(pipe.read)
                throw error
            }
        } catch {
            throw FaultlineError.launchFailed(reason: "cannot run \(commandLine): \(error)", output: "")
        }
        ChildRegistry.add(process.pid)
        output.startReading(pipe.read)
    }

    /// The child's process id.
    var pid: Int32 { process.pid }

    /// Waits until a line starting with each prefix has been printed; returns the address
    /// after each prefix, in order. Throws `launchFailed` with the output when the child
    /// exits first or `deadline` passes (`timeout` is the whole wait, for the message).
    func waitForLines(_ prefixes: [String], until deadline: ContinuousClock.Instant, timeout: Duration) async throws -> [String] {
        let clock = ContinuousClock()
        while true {
            let found = prefixes.compactMap { output.address(after: $0) }
            if found.count == prefixes.count { return found }
            if let status = process.exitStatus {
                // Let the reader collect the last words before quoting them.
                try? await Task.sleep(for: .milliseconds(50))
                throw FaultlineError.launchFailed(reason: "\(commandLine) exited with status \(status)",
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

    /// Waits until the child has exited and all it printed is read; returns its exit
    /// status, or nil when `deadline` passes first.
    func waitForExit(until deadline: ContinuousClock.Instant) async -> Int32? {
        while ContinuousClock.now < deadline {
            if let status = process.exitStatus, output.isClosed { return status }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    /// Sends SIGTERM without waiting, so that several children wind down together.
    func requestTermination() {
        process.send(SIGTERM)
    }

    /// SIGTERM, then SIGKILL when the child is still running after `grace`; returns once
    /// it has exited (blocking: it runs from `stop()` and `deinit`).
    func terminate(grace: Duration = .seconds(3)) {
        defer { if !process.isRunning { ChildRegistry.remove(process.pid) } }
        guard process.isRunning else { return }
        process.send(SIGTERM)
        if process.waitForExit(timeout: grace) != nil { return }
        process.send(SIGKILL)
        // SIGKILL always ends it; the wait is bounded anyway.
        process.waitForExit(timeout: .seconds(30))
    }
}
#endif
