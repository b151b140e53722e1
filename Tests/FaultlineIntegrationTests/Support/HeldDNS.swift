import Foundation
import FaultlineTestSupport

/// `Tests/Scripts/held_dns.py` on port 53 of a loopback address of its own, and a resolv.conf
/// naming it. A proxy started with `launcher` (a private mount namespace where that file is
/// bind-mounted over /etc/resolv.conf; root or CAP_SYS_ADMIN, as `TrustedURLSession`)
/// resolves through it: names under `held.test` answer 127.0.0.1 only after `release()`,
/// names under `missing.test` do not exist. Killed when dropped.
final class HeldDNS: Sendable {
    private let child: ChildProcess
    private let directory: TemporaryDirectory

    private init(child: ChildProcess, directory: TemporaryDirectory) {
        self.child = child
        self.directory = directory
    }

    static func start() async throws -> HeldDNS {
        let directory = try TemporaryDirectory()
        // A loopback address no other test uses, so servers of parallel tests never share port 53.
        let ip = "127.\(Int.random(in: 1...254)).\(Int.random(in: 1...254)).\(Int.random(in: 2...254))"
        // One try that waits as long as glibc allows: a held answer is released by the test, not a clock.
        _ = try directory.write("resolv.conf", "nameserver \(ip)\noptions timeout:30 attempts:1\n")
        let child = try ChildProcess(executable: TestPaths.python3, arguments: [
            "-u", TestPaths.scripts.appendingPathComponent("held_dns.py").path, "--listen", ip,
            "--release", directory.path("release"),
        ])
        _ = try await child.output.waitForLine(containing: "dns listening on ", timeout: .seconds(15))
        return HeldDNS(child: child, directory: directory)
    }

    /// Runs a command in a mount namespace where /etc/resolv.conf names this server.
    var launcher: [String] {
        ["/usr/bin/unshare", "-m", "/bin/sh", "-c", "mount --bind \"$0\" /etc/resolv.conf && exec \"$@\"", directory.path("resolv.conf")]
    }

    /// Waits until a query for `name` arrived (an A or AAAA lookup has started).
    func waitForQuery(_ name: String) async throws {
        try await child.output.waitForLine(containing: "query \(name) ")
    }

    /// How many A queries for `name` arrived so far.
    func queries(_ name: String) -> Int {
        child.output.settledLines.filter { $0.text == "query \(name) 1" }.count
    }

    /// Lets the held answers go out, now and from now on.
    func release() throws {
        _ = try directory.write("release", "")
    }

    deinit { child.kill() }
}
