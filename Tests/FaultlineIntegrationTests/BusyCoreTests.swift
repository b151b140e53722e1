import Foundation
import Testing
import FaultlineTestSupport

/// A proxy whose core is shared with a busy process (a build, a test suite) still answers at
/// once. A loop that yields its core before sleeping stops yielding when its yields stall it:
/// otherwise every yield hands the busy process a whole time slice while the loop's next
/// event waits (one connection: about 330 requests a second against 2,500-3,100 without the
/// stalls). Seen from outside in the count of the proxy's involuntary context switches: each
/// such yield is one. The busy process and the proxy share one core; curl and the origin run
/// on another, so that nothing the proxy waits for runs on its core. `scripts/test.sh` runs it
/// by itself: another test's process on that core would add switches of its own.
@Suite(.timeLimit(.minutes(1)))
struct BusyCoreTests {
    private static let requests = 200

    @Test func aBusyProcessOnTheProxysCoreDoesNotTakeATimeSlicePerRequest() async throws {
        let cpus = try ProcessStatus.allowedCPUs(inFile: "/proc/self/status")
        guard let shared = cpus.last, let other = cpus.first, other != shared else {
            throw TestFailure("this test needs two CPUs (one shared by the proxy and a busy process); allowed: \(cpus)")
        }
        let busy = try ChildProcess(executable: Self.taskset, arguments: ["-c", "\(shared)", "/bin/sh", "-c", "while :; do :; done"])
        defer { busy.kill() }
        let origin = try await OriginProcess.demo(launcher: [Self.taskset, "-c", "\(other)"])
        defer { origin.kill() }
        let directory = try TemporaryDirectory()
        var config = ProxyConfig.single(port: origin.port)
        config.workers = 1
        let path = try directory.write("faultline.json", config.json)
        let proxy = try await FaultlineProcess.run(config: path, launcher: [Self.taskset, "-c", "\(shared)"])
        defer { proxy.kill() }

        // The first exchange opens the upstream connection; the count starts after it.
        let url = proxy.url("/bytes/16")
        #expect(try await Self.curl(on: other, [url]) == ["200 1"])
        let before = try Self.involuntarySwitches(proxy.child.pid)
        let lines = try await Self.curl(on: other, Array(repeating: url, count: Self.requests))
        let switches = try Self.involuntarySwitches(proxy.child.pid) - before

        #expect(lines.count == Self.requests && lines.allSatisfy { $0.hasPrefix("200 ") }, "\(lines)")
        #expect(lines.reduce(0) { $0 + (Int($1.split(separator: " ").last ?? "") ?? 0) } == 1,
                "curl made more than one connection for \(Self.requests) requests: \(lines)")
        #expect(switches < Self.requests / 4,
                "\(switches) involuntary context switches of the proxy over \(Self.requests) requests on CPU \(shared) beside a busy process")
    }

    private static let taskset = "/usr/bin/taskset"

    /// curl on CPU `cpu`, one request after another on one connection: per URL, its status and
    /// the connections it opened, one line each.
    private static func curl(on cpu: Int, _ urls: [String]) async throws -> [String] {
        var arguments = ["-c", "\(cpu)", TestPaths.curl, "-s", "--max-time", "30", "-w", "%{http_code} %{num_connects}\\n"]
        for url in urls { arguments += ["-o", "/dev/null", url] }
        let child = try ChildProcess(executable: taskset, arguments: arguments, standardError: .discard)
        let status = try await child.waitForExit(timeout: .seconds(40))
        try await Deadline.poll("curl's output to end", timeout: .seconds(10)) { child.output.isFinished ? () : nil }
        guard status == 0 else { throw TestFailure("curl exited with \(status): \(child.output.text)") }
        return child.output.lines.map(\.text)
    }

    /// The involuntary context switches of every thread of `pid` so far.
    private static func involuntarySwitches(_ pid: Int32) throws -> Int {
        let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")
        return try tasks.reduce(0) { total, task in
            guard let count = ProcessStatus.number("nonvoluntary_ctxt_switches", inFile: "/proc/\(pid)/task/\(task)/status") else {
                throw TestFailure("no nonvoluntary_ctxt_switches for task \(task) of \(pid)")
            }
            return total + count
        }
    }
}
