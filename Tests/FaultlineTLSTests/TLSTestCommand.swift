import Foundation

struct TLSTestCommandError: Error, CustomStringConvertible, Sendable {
    let description: String
}

/// What a finished command printed.
struct TLSTestCommandResult: Sendable {
    let status: Int32
    let output: String
    let error: String
}

/// Runs CLI peers (openssl, curl) with a hard time limit.
enum TLSTestCommand {
    @discardableResult
    static func run(_ arguments: [String], input: String? = nil,
                    timeoutSeconds: Double = 20) throws(TLSTestCommandError) -> TLSTestCommandResult {
        let result = try launch(arguments, input: input, timeoutSeconds: timeoutSeconds)
        if result.status != 0 {
            throw TLSTestCommandError(description: "\(arguments.joined(separator: " ")) failed (\(result.status)): \(result.error)")
        }
        return result
    }

    static func launch(_ arguments: [String], input: String? = nil,
                       timeoutSeconds: Double = 20) throws(TLSTestCommandError) -> TLSTestCommandResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let stdout = Pipe(), stderr = Pipe(), stdin = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = stdin
        do { try process.run() } catch {
            throw TLSTestCommandError(description: "cannot start \(arguments[0]): \(error)")
        }
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try? stdin.fileHandleForWriting.close()
        // Drain both pipes concurrently so a chatty peer never blocks on a full pipe.
        let collected = TLSTestOutputCollector()
        let group = DispatchGroup()
        for (index, pipe) in [stdout, stderr].enumerated() {
            group.enter()
            DispatchQueue.global().async {
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                collected.set(index, String(decoding: data, as: UTF8.self))
                group.leave()
            }
        }
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        _ = group.wait(timeout: .now() + 5)
        return TLSTestCommandResult(status: process.terminationStatus, output: collected.get(0), error: collected.get(1))
    }
}

final class TLSTestOutputCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var values = ["", ""]
    func set(_ index: Int, _ value: String) { lock.withLock { values[index] = value } }
    func get(_ index: Int) -> String { lock.withLock { values[index] } }
}
