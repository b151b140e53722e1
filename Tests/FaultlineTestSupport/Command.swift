import Foundation
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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let stdout = Pipe(), stderr = Pipe(), stdin = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = stdin
        do { try process.run() } catch {
            throw TestFailure("cannot start \(arguments.first ?? "nothing"): \(error)")
        }
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try? stdin.fileHandleForWriting.close()
        // Drain both pipes at once, so that a chatty tool never blocks on a full pipe.
        let collected = Collected()
        let group = DispatchGroup()
        for (index, pipe) in [stdout, stderr].enumerated() {
            group.enter()
            DispatchQueue.global().async {
                // Not readDataToEndOfFile: a signal interrupting its blocked read(2) makes
                // Foundation trap (EINTR through a try!); this loop retries instead.
                collected.set(index, String(decoding: Self.readToEnd(pipe.fileHandleForReading.fileDescriptor), as: UTF8.self))
                group.leave()
            }
        }
        let end = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < end { usleep(10_000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        _ = group.wait(timeout: .now() + 5)
        return CommandResult(status: process.terminationStatus, output: collected.get(0), error: collected.get(1))
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
