import Foundation

/// `Tests/Scripts/h2origin.py` in a child process: an HTTP/2 origin, cleartext prior
/// knowledge or TLS with ALPN `h2`; endpoints and log lines are described in the script.
public final class H2Origin: Sendable {
    /// The running script.
    public let child: ChildProcess
    /// The loopback port it listens on.
    public let port: Int

    /// Its output: `conn N open h2c|h2`, `conn N stream S request METHOD PATH`, … one a line.
    public var output: OutputLog { child.output }

    private init(child: ChildProcess, port: Int) {
        self.child = child
        self.port = port
    }

    /// Starts the origin on an ephemeral loopback port, with TLS when `certificate` (a chain,
    /// leaf first) and `key` are given, advertising `maxConcurrentStreams` and
    /// `initialWindow` in its SETTINGS; waits up to 15 s for it to listen.
    public static func start(certificate: String? = nil, key: String? = nil, maxConcurrentStreams: Int = 100,
                             initialWindow: Int = 65535) async throws -> H2Origin {
        var arguments = ["-u", TestPaths.scripts.appendingPathComponent("h2origin.py").path, "--listen", "127.0.0.1:0",
                         "--max-concurrent-streams", String(maxConcurrentStreams), "--initial-window", String(initialWindow)]
        if let certificate, let key { arguments += ["--cert", certificate, "--key", key] }
        let child = try ChildProcess(executable: TestPaths.python3, arguments: arguments)
        let marker = "h2 origin listening on "
        let line = try await child.output.waitForLine("\"\(marker)\" from h2origin.py", timeout: .seconds(15)) {
            $0.contains(marker)
        }
        guard let port = Int(line.text.split(separator: ":").last ?? "") else {
            throw TestFailure("no port in \"\(line.text)\"")
        }
        return H2Origin(child: child, port: port)
    }

    /// The `conn N stream S request METHOD PATH` lines logged so far.
    public var requests: [String] { output.lines.map(\.text).filter { $0.contains(" request ") } }

    /// The request lines once at least `count` are logged. A client can have its answer
    /// before the origin's line for that request is read here: a count taken at once may
    /// miss the last one.
    @discardableResult
    public func waitForRequests(_ count: Int, timeout: Duration = .seconds(15)) async throws -> [String] {
        try await Deadline.poll("\(count) request lines from h2origin.py; output so far:\n\(output.text)", timeout: timeout) {
            let seen = requests
            return seen.count >= count ? seen : nil
        }
    }

    /// Stops the origin.
    public func kill() { child.kill() }
}
