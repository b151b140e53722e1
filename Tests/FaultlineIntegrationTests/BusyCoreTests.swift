import Foundation
import Testing
import FaultlineTestSupport

/// A proxy whose core is shared with a busy process (a build, a test suite) still answers at
/// once: a loop that yields its core before sleeping stops yielding when the thread that ran
/// brought it nothing. Otherwise every yield hands the busy process a whole time slice while
/// the loop's next request waits (one connection: about 330 requests a second against 3,100
/// without the yields). Seen from outside in the count of the proxy's involuntary context
/// switches: each such yield is one.
@Suite(.timeLimit(.minutes(1)))
struct BusyCoreTests {
    private static let requests = 200

    @Test func aBusyProcessOnTheProxysCoreDoesNotTakeATimeSlicePerRequest() async throws {
        let cpu = try Self.lastAllowedCPU()
        let busy = try ChildProcess(executable: Self.taskset, arguments: ["-c", "\(cpu)", "/bin/sh", "-c", "while :; do :; done"])
        defer { busy.kill() }
        let origin = try await OriginProcess.demo()
        defer { origin.kill() }
        let directory = try TemporaryDirectory()
        var config = ProxyConfig.single(port: origin.port)
        config.workers = 1
        let path = try directory.write("faultline.json", config.json)
        let proxy = try await FaultlineProcess.run(config: path, launcher: [Self.taskset, "-c", "\(cpu)"])
        defer { proxy.kill() }

        let port = proxy.port, pid = proxy.child.pid
        let (statuses, switches) = try await Blocking.run { () throws -> ([Int], Int) in
            let client = try RawClient(port: port, readTimeout: .seconds(20))
            defer { client.close() }
            var statuses: [Int] = []
            // The first exchange opens the upstream connection; the count starts after it.
            try client.send("GET /bytes/16 HTTP/1.1\r\nHost: a\r\n\r\n")
            statuses += client.readResponses(1, timeout: .seconds(20)).responses.map(\.status)
            let before = try Self.involuntarySwitches(pid)
            for _ in 0..<Self.requests {
                try client.send("GET /bytes/16 HTTP/1.1\r\nHost: a\r\n\r\n")
                statuses += client.readResponses(1, timeout: .seconds(20)).responses.map(\.status)
            }
            return (statuses, try Self.involuntarySwitches(pid) - before)
        }
        #expect(statuses == Array(repeating: 200, count: Self.requests + 1))
        #expect(switches < Self.requests / 4,
                "\(switches) involuntary context switches of the proxy over \(Self.requests) requests on CPU \(cpu) beside a busy process")
    }

    private static let taskset = "/usr/bin/taskset"

    /// The highest CPU this process may run on (the last number of `Cpus_allowed_list`, which
    /// lists ascending ranges such as `0-1` or `0,2-3`).
    private static func lastAllowedCPU() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed_list:") }),
              let last = line.dropFirst("Cpus_allowed_list:".count).split(whereSeparator: { $0 == "," || $0 == "-" }).last,
              let cpu = Int(last.trimmingCharacters(in: .whitespaces)) else {
            throw TestFailure("no Cpus_allowed_list in /proc/self/status")
        }
        return cpu
    }

    /// The involuntary context switches of every thread of `pid` so far.
    private static func involuntarySwitches(_ pid: Int32) throws -> Int {
        let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")
        return try tasks.reduce(0) { total, task in
            let status = try String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("nonvoluntary_ctxt_switches:") }),
                  let count = Int(line.dropFirst("nonvoluntary_ctxt_switches:".count).trimmingCharacters(in: .whitespaces)) else {
                throw TestFailure("no nonvoluntary_ctxt_switches for task \(task) of \(pid)")
            }
            return total + count
        }
    }
}
