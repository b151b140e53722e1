import Foundation
import FaultlineTestSupport

/// A Python script (an origin of the integration tests) run as `python3 -u SCRIPT ARGUMENTS…`
/// from its own temporary directory; ready once it printed a line containing `marker` and
/// ending in `:PORT`, the port it listens on.
final class PythonScriptProcess: Sendable {
    let child: ChildProcess
    let port: Int
    /// Where the script and any files its arguments name live; removed with the process object.
    let directory: TemporaryDirectory

    var output: OutputLog { child.output }

    private init(child: ChildProcess, port: Int, directory: TemporaryDirectory) {
        self.child = child
        self.port = port
        self.directory = directory
    }

    /// Writes `source` to `name` in a new temporary directory and runs it with the arguments
    /// `arguments` returns (given that directory, to write input files into); waits up to 15 s
    /// for `marker`.
    static func start(_ name: String, source: String, marker: String = "origin listening on ",
                      arguments: (TemporaryDirectory) throws -> [String] = { _ in [] }) async throws -> PythonScriptProcess {
        let directory = try TemporaryDirectory()
        let script = try directory.write(name, source)
        let child = try ChildProcess(executable: TestPaths.python3, arguments: ["-u", script] + arguments(directory),
                                     directory: directory.url)
        let line = try await child.output.waitForLine("\"\(marker)\" from \(name)", timeout: .seconds(15)) {
            $0.contains(marker)
        }
        guard let port = Int(line.text.split(separator: ":").last ?? "") else {
            throw TestFailure("no port in \"\(line.text)\"")
        }
        return PythonScriptProcess(child: child, port: port, directory: directory)
    }

    func kill() { child.kill() }
}
