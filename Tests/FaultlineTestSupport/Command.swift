import Foundation
import FaultlineTesting
#if canImport(Glibc)
import Glibc
#endif

/// Runs command-line tools (openssl, curl, sh), the reference implementations that the code
/// under test must agree with, each bounded in time so that a hung peer cannot hang a test.
/// Blocking: from async code, call it inside `Blocking.run`.
public enum Command {
    /// Runs `arguments` (the tool is found in PATH), feeding `input` to its stdin, in
    /// `directory` when given; throws when it cannot start or exits non-zero.
    @discardableResult
    public static func run(_ arguments: [String], input: String? = nil, directory: URL? = nil,
                           timeout: Duration = .seconds(60)) throws(TestFailure) -> CommandResult {
        let result = try launch(arguments, input: input, directory: directory, timeout: timeout)
        if result.status != 0 {
            throw TestFailure("\(arguments.joined(separator: " ")) failed (\(result.status)): \(result.error)")
        }
        return result
    }

    /// Runs `/bin/sh -c script` in `directory`, stderr merged into the output; throws when
    /// it exits non-zero.
    @discardableResult
    public static func shell(_ script: String, in directory: URL?,
                             timeout: Duration = .seconds(60)) throws(TestFailure) -> CommandResult {
        let result = try shellResult(script, in: directory, timeout: timeout)
        guard result.status == 0 else {
            throw TestFailure("`\(script)` exited \(result.status): \(result.output)")
        }
        return result
    }

    /// Runs `/bin/sh -c script` in `directory`, stderr merged into the output, whatever its
    /// exit status.
    public static func shellResult(_ script: String, in directory: URL?,
                                   timeout: Duration = .seconds(60)) throws(TestFailure) -> CommandResult {
        try launch(["/bin/sh", "-c", "{ \(script)\n} 2>&1"], directory: directory, timeout: timeout)
    }

    /// Runs `arguments` and returns how it ended, whatever its exit status; kills it after
    /// `timeout`.
    public static func launch(_ arguments: [String], input: String? = nil, directory: URL? = nil,
                              timeout: Duration = .seconds(60)) throws(TestFailure) -> CommandResult {
        var parentEnds: [Int32] = [], childEnds: [Int32] = []
        let process: Subprocess
        do {
            defer { childEnds.forEach { close($0) } }
            let (stdinPipe, stdoutPipe, stderrPipe) = (try Subprocess.pipe(), try Subprocess.pipe(), try Subprocess.pipe())
            parentEnds = [stdinPipe.write, stdoutPipe.read, stderrPipe.read]
            childEnds = [stdinPipe.read, stdoutPipe.write, stderrPipe.write]
            process = try Subprocess(executable: "/usr/bin/env", arguments: arguments, directory: directory?.path,
                                     stdin: stdinPipe.read, stdout: stdoutPipe.write, stderr: stderrPipe.write)
        } catch {
            parentEnds.forEach { close($0) }
            throw TestFailure("cannot start \(arguments.first ?? "nothing"): \(error)")
        }
        // Drain both pipes at once, so that a chatty tool never blocks on a full pipe; each
        // reader closes its end when done.
        let collected = Collected()
        let group = DispatchGroup()
        for (index, fd) in [parentEnds[1], parentEnds[2]].enumerated() {
            group.enter()
            DispatchQueue.global().async {
                collected.set(index, String(decoding: Self.readToEnd(fd), as: UTF8.self))
                close(fd)
                group.leave()
            }
        }
        if let input { Self.writeAll(Array(input.utf8), to: parentEnds[0]) }
        close(parentEnds[0])
        if process.waitForExit(timeout: timeout) == nil {
            process.send(SIGTERM)
            if process.waitForExit(timeout: .seconds(5)) == nil { process.send(SIGKILL) }
        }
        let status = process.waitForExit(timeout: .seconds(30)) ?? 128 + SIGKILL
        _ = group.wait(timeout: .now() + 5)
        return CommandResult(status: status, output: collected.get(0), error: collected.get(1))
    }

    /// Writes all of `bytes` to `fd`, retrying interrupted and partial writes; stops early
    /// when the reader has gone.
    static func writeAll(_ bytes: [UInt8], to fd: Int32) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                return
            }
        }
    }

    /// Everything `fd` yields until end of file, retrying reads a signal interrupted.
    static func readToEnd(_ fd: Int32) -> [UInt8] {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                data.append(contentsOf: buffer[0..<count])
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                return data
            }
        }
    }
}

/// stdout and stderr of one command, filled by two reader threads. An `NSLock` (a pthread
/// mutex) rather than `Mutex`: ThreadSanitizer sees the former, so the sanitized runs stay clean.
private final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var values = ["", ""]

    func set(_ index: Int, _ text: String) { lock.withLock { values[index] = text } }
    func get(_ index: Int) -> String { lock.withLock { values[index] } }
}
