import Foundation
import FaultlineTestSupport

/// `faultline run --config FILE` whose stdout is a pipe nobody reads (it fills after 64 KiB
/// and every later write(2) blocks), and whose stderr goes line by line into an `OutputLog`.
/// Ready once the listener and the admin API are up. Killed (SIGKILL) when dropped.
final class StalledStdoutProcess: Sendable {
    private let child: ChildProcess
    let port: Int
    let adminPort: Int
    /// Its stderr, line by line.
    var stderr: OutputLog { child.output }

    private init(child: ChildProcess, port: Int, adminPort: Int) {
        self.child = child
        self.port = port
        self.adminPort = adminPort
    }

    /// Starts the proxy and waits for `faultline: listening on` and `admin API listening on`.
    static func start(config path: String) async throws -> StalledStdoutProcess {
        let child = try ChildProcess(executable: TestPaths.faultline, arguments: ["run", "--config", path],
                                     standardOutput: .unreadPipe, standardError: .log)
        let listening = try await child.output.waitForLine(containing: "faultline: listening on ", timeout: .seconds(15))
        let admin = try await child.output.waitForLine(containing: "admin API listening on ", timeout: .seconds(15))
        guard let port = Int(listening.text.split(separator: ":").last ?? ""),
              let adminPort = Int(admin.text.split(separator: ":").last ?? "") else {
            throw TestFailure("no ports in \(child.output.text)")
        }
        return StalledStdoutProcess(child: child, port: port, adminPort: adminPort)
    }

    var isRunning: Bool { child.isRunning }

    func kill() {
        child.kill()
    }
}
