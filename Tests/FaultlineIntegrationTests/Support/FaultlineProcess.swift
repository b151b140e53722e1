import Foundation
import FaultlineTestSupport

/// The real `faultline` binary, started with arguments; for `run`, it is ready once every
/// listener has printed `faultline: listening on 127.0.0.1:PORT`.
final class FaultlineProcess: Sendable {
    let child: ChildProcess
    /// The listener ports, in the order printed.
    let ports: [Int]

    var port: Int { ports[0] }
    var output: OutputLog { child.output }

    private init(child: ChildProcess, ports: [Int]) {
        self.child = child
        self.ports = ports
    }

    /// Starts `faultline run ARGUMENTS` and waits until `listeners` listeners are ready;
    /// `launcher` is a command that runs it (e.g. in a namespace of its own: `HeldDNS`).
    static func run(_ arguments: [String], listeners: Int = 1, timeout: Duration = .seconds(15),
                    launcher: [String] = []) async throws -> FaultlineProcess {
        let command = launcher + [TestPaths.faultline, "run"] + arguments
        let child = try ChildProcess(executable: command[0], arguments: Array(command.dropFirst()))
        let marker = "faultline: listening on "
        let lines = try await Deadline.poll("\(listeners) listening line(s) from faultline run; output:\n\(child.output.text)",
                                            timeout: timeout) { () -> [String]? in
            let found = child.output.lines.map(\.text).filter { $0.contains(marker) }
            if found.count >= listeners { return found }
            if !child.isRunning && child.output.isFinished {
                throw TestFailure("faultline run exited early; output:\n\(child.output.text)")
            }
            return nil
        }
        let ports = try lines.map { line in
            guard let port = Int(line.split(separator: ":").last ?? "") else {
                throw TestFailure("no port in \"\(line)\"")
            }
            return port
        }
        return FaultlineProcess(child: child, ports: ports)
    }

    /// Starts `faultline run --config FILE` with extra arguments.
    static func run(config path: String, _ extra: [String] = [], launcher: [String] = []) async throws -> FaultlineProcess {
        try await run(["--config", path] + extra, launcher: launcher)
    }

    /// Runs a faultline command that exits by itself (`check-config`, `--help`) and
    /// returns its exit status and merged output.
    static func command(_ arguments: [String], timeout: Duration = .seconds(60)) async throws -> (status: Int32, output: String) {
        let child = try ChildProcess(executable: TestPaths.faultline, arguments: arguments)
        let status = try await child.waitForExit(timeout: timeout)
        try await Deadline.poll("output of faultline \(arguments) to end", timeout: .seconds(30)) {
            child.output.isFinished ? () : nil
        }
        return (status, child.output.text)
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    func signal(_ signal: Int32) { child.signal(signal) }

    /// Sends SIGTERM and waits for the exit status.
    func terminate(timeout: Duration = .seconds(15)) async throws -> Int32 {
        child.signal(SIGTERM)
        return try await child.waitForExit(timeout: timeout)
    }

    func kill() { child.kill() }
}
