import Foundation

/// Runs `/usr/bin/curl` with arguments, always bounded by `--max-time`; stdout goes to a
/// file (bodies can be large), stderr is captured.
public enum Curl {
    /// Runs curl with `-sS --max-time maxTime` and `arguments`; waits for it to exit.
    public static func run(_ arguments: [String], maxTime: Int = 10) async throws -> CurlResult {
        let directory = try TemporaryDirectory()
        let outPath = directory.path("stdout")
        let errPath = directory.path("stderr")
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestPaths.curl)
        process.arguments = ["-sS", "--max-time", String(maxTime)] + arguments
        process.standardInput = FileHandle.nullDevice
        let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        process.standardOutput = out
        process.standardError = err
        try process.run()
        try? out.close()
        try? err.close()
        defer { if process.isRunning { process.interrupt(); kill(process.processIdentifier, SIGKILL) } }
        try await Deadline.poll("curl \(arguments) to exit", timeout: .seconds(maxTime + 10), interval: .milliseconds(10)) {
            process.isRunning ? nil : ()
        }
        let stdout = try [UInt8](Data(contentsOf: URL(fileURLWithPath: outPath)))
        let stderr = try String(decoding: Data(contentsOf: URL(fileURLWithPath: errPath)), as: UTF8.self)
        return CurlResult(exitCode: process.terminationStatus, stdout: stdout, stderr: stderr)
    }
}
