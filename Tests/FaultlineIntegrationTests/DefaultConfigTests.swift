import Foundation
import Testing
import FaultlineTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The shipped `config/default.json` as a new user starts it: from a fresh checkout (no
/// certificates yet), then on an ordinary descriptor limit.
@Suite(.timeLimit(.minutes(2)))
struct DefaultConfigTests {
    /// A checkout's layout in a temporary directory: `config/default.json` (its fixed ports
    /// made 0 when `freePorts`, so parallel runs never collide) and an empty `certs/`.
    private static func checkout(freePorts: Bool, limits: String? = nil) throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        var text = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("config/default.json"), encoding: .utf8)
        if freePorts {
            for port in ["8080", "8443", "9901"] { text = text.replacingOccurrences(of: "\"127.0.0.1:\(port)\"", with: "\"127.0.0.1:0\"") }
            text = text.replacingOccurrences(of: "\"demo_origin\": {\"address\": \"127.0.0.1:8081\"}", with: "\"demo_origin\": {\"address\": \"127.0.0.1:0\"}")
        }
        if let limits {
            guard let range = text.range(of: "\"limits\": {") else { throw TestFailure("no limits in config/default.json") }
            text.replaceSubrange(range, with: "\"limits\": {\(limits), ")
        }
        try FileManager.default.createDirectory(atPath: directory.path + "/config", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: directory.path + "/certs", withIntermediateDirectories: true)
        _ = try directory.write("config/default.json", text)
        return directory
    }

    /// Runs `faultline ARGUMENTS` in `directory` until it exits; status and output.
    private static func command(_ arguments: [String], in directory: TemporaryDirectory) async throws -> (status: Int32, output: String) {
        let child = try ChildProcess(executable: TestPaths.faultline, arguments: arguments, directory: URL(fileURLWithPath: directory.path))
        let status = try await child.waitForExit(timeout: .seconds(60))
        try await Deadline.poll("output of faultline \(arguments) to end", timeout: .seconds(30)) { child.output.isFinished ? () : nil }
        return (status, child.output.text)
    }

    @Test func aFreshCheckoutIsToldHowToMintTheCertificate() async throws {
        let directory = try Self.checkout(freePorts: false)
        let run = try await Self.command(["run", "--config", "config/default.json"], in: directory)
        #expect(run.status == 3, "\(run.output)")
        #expect(run.output.contains(#"listeners[1].tls.certificate: cannot read "../certs/proxy.pem": No such file or directory; faultline certs init --dir certs mints a development CA"#),
                "\(run.output)")
        #expect(!run.output.contains("listening on"))
        let minted = try await Self.command(["certs", "init", "--dir", "certs"], in: directory)
        #expect(minted.status == 0, "\(minted.output)")
        let check = try await Self.command(["check-config", "config/default.json"], in: directory)
        #expect(check.status == 0, "\(check.output)")
    }

    /// Starts the default config under `prlimit --nofile=NOFILE`, stops it, and returns all it printed.
    private static func startAndStop(_ directory: TemporaryDirectory, nofile: String) async throws -> String {
        let minted = try await command(["certs", "init", "--dir", "certs"], in: directory)
        guard minted.status == 0 else { throw TestFailure("certs init failed: \(minted.output)") }
        let proxy = try await LimitedProxy.start(config: directory.path + "/config/default.json", nofile: nofile)
        defer { proxy.child.kill() }
        try await proxy.child.output.waitForLine(containing: "demo origin listening on", timeout: .seconds(15))
        // Operator events leave through one queue in order: once the drain is printed, any
        // start-up warning would have been too.
        proxy.child.signal(SIGTERM)
        let status = try await proxy.child.waitForExit(timeout: .seconds(30))
        try await Deadline.poll("faultline's output to end", timeout: .seconds(30)) { proxy.child.output.isFinished ? () : nil }
        guard status == 0 else { throw TestFailure("faultline exited \(status):\n\(proxy.child.output.text)") }
        return proxy.child.output.text
    }

    /// The limit the issue was seen under (20000), or this machine's hard limit if lower.
    private static var commonLimit: Int {
        var limits = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits) == 0 else { return 20000 }
        return Int(min(limits.rlim_max, 20000))
    }

    @Test func theDefaultConfigStartsWithoutAWarning() async throws {
        // 1024:4096 was the stock limit of many distributions; 20000 the one reported.
        for nofile in ["1024:4096", "\(Self.commonLimit):\(Self.commonLimit)"] {
            let output = try await Self.startAndStop(try Self.checkout(freePorts: true), nofile: nofile)
            #expect(output.contains("faultline: listening on"), "\(output)")
            #expect(!output.contains("warning"), "ulimit -n \(nofile):\n\(output)")
        }
    }

    @Test func aMaxConnectionsTheFileSetsIsStillReportedWhenItDoesNotFit() async throws {
        let limit = Self.commonLimit
        let output = try await Self.startAndStop(try Self.checkout(freePorts: true, limits: "\"max_connections\": 10000"),
                                                 nofile: "\(limit):\(limit)")
        #expect(output.contains("warning: limits.max_connections 10000 does not fit the descriptor limit (\(limit)"), "\(output)")
    }
}
