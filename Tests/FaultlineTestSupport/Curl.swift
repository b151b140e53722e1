import Foundation
import FaultlineTesting
#if canImport(Glibc)
import Glibc
#endif

/// Runs `/usr/bin/curl` with arguments, always bounded by `--max-time`; stdout goes to a
/// file (bodies can be large), stderr is captured.
public enum Curl {
    /// Runs curl with `-sS --max-time maxTime` and `arguments`; waits for it to exit.
    public static func run(_ arguments: [String], maxTime: Int = 10) async throws -> CurlResult {
        let directory = try TemporaryDirectory()
        let outPath = directory.path("stdout")
        let errPath = directory.path("stderr")
        let out = open(outPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        let err = open(errPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        defer {
            if out >= 0 { close(out) }
            if err >= 0 { close(err) }
        }
        guard out >= 0, err >= 0 else { throw TestFailure("cannot create curl's output files in \(directory.path): errno \(errno)") }
        let process = try Subprocess(executable: TestPaths.curl, arguments: ["-sS", "--max-time", String(maxTime)] + arguments,
                                     stdout: out, stderr: err)
        defer {
            process.send(SIGKILL)
            process.waitForExit(timeout: .seconds(5))
        }
        let status = try await Deadline.poll("curl \(arguments) to exit", timeout: .seconds(maxTime + 10), interval: .milliseconds(10)) {
            process.exitStatus
        }
        let stdout = try [UInt8](Data(contentsOf: URL(fileURLWithPath: outPath)))
        let stderr = try String(decoding: Data(contentsOf: URL(fileURLWithPath: errPath)), as: UTF8.self)
        return CurlResult(exitCode: status, stdout: stdout, stderr: stderr)
    }
}
