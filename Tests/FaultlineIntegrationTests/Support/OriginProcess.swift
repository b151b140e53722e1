import Foundation
import FaultlineTestSupport

/// An origin server in a child process: Faultline's demo origin, Python's `http.server`,
/// or the scripted Python origin of `PythonOriginScript`. Ready once it printed its port.
final class OriginProcess: Sendable {
    let child: ChildProcess
    let port: Int
    private let directory: TemporaryDirectory?

    var output: OutputLog { child.output }
    var url: String { "http://127.0.0.1:\(port)" }

    private init(child: ChildProcess, port: Int, directory: TemporaryDirectory?) {
        self.child = child
        self.port = port
        self.directory = directory
    }

    /// Starts a child and waits for the line that names its port; `port` extracts it.
    private static func start(_ executable: String, _ arguments: [String], directory: TemporaryDirectory?,
                              ready marker: String, port: @escaping @Sendable (String) -> Int?) async throws -> OriginProcess {
        let child = try ChildProcess(executable: executable, arguments: arguments, directory: directory?.url)
        let line = try await child.output.waitForLine("\"\(marker)\" from \(executable)", timeout: .seconds(15)) {
            $0.contains(marker) && port($0) != nil
        }
        return OriginProcess(child: child, port: port(line.text)!, directory: directory)
    }

    private static func lastPort(_ line: String) -> Int? {
        Int(line.split(separator: ":").last ?? "")
    }

    /// `faultline demo-origin --listen 127.0.0.1:0`; `launcher` is a command that runs it
    /// (`taskset -c N` to pin it to a core).
    static func demo(launcher: [String] = []) async throws -> OriginProcess {
        let command = launcher + [TestPaths.faultline, "demo-origin", "--listen", "127.0.0.1:0", "--workers", "1"]
        return try await start(command[0], Array(command.dropFirst()),
                               directory: nil, ready: "demo origin listening on ", port: lastPort)
    }

    /// `python3 -m http.server --bind 127.0.0.1 0`, serving `files` (name → contents).
    static func pythonHTTPServer(files: [String: Data]) async throws -> OriginProcess {
        let directory = try TemporaryDirectory()
        for (name, data) in files { try directory.write(name, data) }
        // "Serving HTTP on 127.0.0.1 port 40123 (http://127.0.0.1:40123/) ..."
        return try await start(TestPaths.python3, ["-u", "-m", "http.server", "--bind", "127.0.0.1", "0"],
                               directory: directory, ready: "Serving HTTP on") { line in
            guard let range = line.range(of: " port ") else { return nil }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        }
    }

    /// The scripted origin (`PythonOriginScript`): behaviour chosen by request path, and
    /// every connection event logged as a line.
    static func scripted() async throws -> OriginProcess {
        try await python(PythonOriginScript.source)
    }

    /// A Python origin from `source`, ready once it printed `origin listening on HOST:PORT`.
    static func python(_ source: String) async throws -> OriginProcess {
        let directory = try TemporaryDirectory()
        let script = try directory.write("origin.py", source)
        return try await start(TestPaths.python3, ["-u", script], directory: directory,
                               ready: "origin listening on ", port: lastPort)
    }

    func kill() { child.kill() }
}
