import Foundation
import FaultlineTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `faultline run --config FILE` whose stdout is a pipe nobody reads (it fills after 64 KiB
/// and every later write(2) blocks), and whose stderr goes line by line into an `OutputLog`.
/// Ready once the listener and the admin API are up. Killed (SIGKILL) when dropped.
final class StalledStdoutProcess: @unchecked Sendable {
    let process: Process
    /// Held so the read end stays open (a closed read end would turn writes into EPIPE).
    private let stdoutPipe: Pipe
    let stderr = OutputLog()
    private(set) var port = 0
    private(set) var adminPort = 0

    private init(config path: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TestPaths.faultline)
        process.arguments = ["run", "--config", path]
        process.standardInput = FileHandle.nullDevice
        let stdoutPipe = Pipe()
        let stderrPipe = Pipe()
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
        self.process = process
        self.stdoutPipe = stdoutPipe
        try process.run()
        try? stdoutPipe.fileHandleForWriting.close()
        try? stderrPipe.fileHandleForWriting.close()
        stderr.startReading(stderrPipe.fileHandleForReading)
    }

    /// Starts the proxy and waits for `faultline: listening on` and `admin API listening on`.
    static func start(config path: String) async throws -> StalledStdoutProcess {
        let started = try StalledStdoutProcess(config: path)
        let listening = try await started.stderr.waitForLine(containing: "faultline: listening on ", timeout: .seconds(15))
        let admin = try await started.stderr.waitForLine(containing: "admin API listening on ", timeout: .seconds(15))
        guard let port = Int(listening.text.split(separator: ":").last ?? ""),
              let adminPort = Int(admin.text.split(separator: ":").last ?? "") else {
            throw TestFailure("no ports in \(started.stderr.text)")
        }
        started.port = port
        started.adminPort = adminPort
        return started
    }

    var isRunning: Bool { process.isRunning }

    func kill() {
        if process.isRunning { _ = Glibc.kill(process.processIdentifier, SIGKILL) }
    }

    deinit { kill() }
}
