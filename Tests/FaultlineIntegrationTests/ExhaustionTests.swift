import Foundation
import Testing
import FaultlineTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Faultline under a low descriptor limit (`prlimit --nofile`): it raises the soft limit to
/// the hard one, caps `max_connections` to what the limit allows, and when accept still runs
/// out of descriptors it pauses the listener instead of spinning on a level-triggered EMFILE.
@Suite("Descriptor exhaustion", .timeLimit(.minutes(2)))
struct ExhaustionTests {
    @Test func theSoftDescriptorLimitIsRaisedToTheHardOne() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("faultline.json", Self.config(maxConnections: 100))
        let proxy = try await LimitedProxy.start(config: path, nofile: "64:4096")
        defer { proxy.child.kill() }
        let limits = try String(contentsOfFile: "/proc/\(proxy.child.pid)/limits", encoding: .utf8)
        let line = limits.split(separator: "\n").first { $0.hasPrefix("Max open files") } ?? ""
        let numbers = line.split(separator: " ").compactMap { Int($0) }
        #expect(numbers == [4096, 4096], "\(line)")
    }

    @Test func acceptDoesNotSpinWhenClientsExhaustDescriptors() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("faultline.json", Self.config(maxConnections: 1000))
        let proxy = try await LimitedProxy.start(config: path, nofile: "64:64")
        defer { proxy.child.kill() }
        let proxyPort = proxy.port
        let pid = proxy.child.pid
        let busy = try await Blocking.run { () throws -> Double in
            let initial = Self.descriptorCount(pid: pid)
            var clients: [RawClient] = []
            for _ in 0..<100 { clients.append(try RawClient(port: proxyPort, readTimeout: .milliseconds(50))) }
            let cpu = try Self.cpuSecondsWhileSaturated(pid: pid, initialDescriptors: initial)
            clients.forEach { $0.close() }
            return cpu
        }
        #expect(busy < 0.15, "faultline used \(busy) s of CPU in 2 s with its descriptors exhausted")
        try await Self.pollServed(port: proxy.port)
        // The configured 1000 cannot fit in 64 descriptors: the operator was told at start.
        #expect(proxy.child.output.text.contains("limits.max_connections 1000 does not fit"), "\(proxy.child.output.text)")
    }

    @Test func listenersPauseOnEMFILE() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("faultline.json", Self.config(maxConnections: 10))
        let proxy = try await LimitedProxy.start(config: path, nofile: "64:64")
        defer { proxy.child.kill() }
        guard let adminPort = proxy.adminPort else { throw TestFailure("no admin port") }
        let pid = proxy.child.pid
        let proxyPort = proxy.port
        // The admin cap (64) does not fit either: accept meets EMFILE, on the admin listener
        // and then on the proxy's (whose own cap would fit, were the admin not holding all).
        let busy = try await Blocking.run { () throws -> Double in
            let initial = Self.descriptorCount(pid: pid)
            var clients: [RawClient] = []
            for _ in 0..<80 { clients.append(try RawClient(port: adminPort, readTimeout: .milliseconds(50))) }
            for _ in 0..<20 { clients.append(try RawClient(port: proxyPort, readTimeout: .milliseconds(50))) }
            let cpu = try Self.cpuSecondsWhileSaturated(pid: pid, initialDescriptors: initial)
            clients.forEach { $0.close() }
            return cpu
        }
        #expect(busy < 0.15, "faultline used \(busy) s of CPU in 2 s with its descriptors exhausted")
        try await Self.pollStatus(port: adminPort, "GET /health HTTP/1.1\r\nHost: 127.0.0.1:\(adminPort)\r\n\r\n", expect: 200)
        try await Self.pollServed(port: proxy.port)
    }

    /// Waits until the process holds descriptors for some of the new connections (10 more
    /// than `initialDescriptors`), then
    /// returns the CPU seconds (user + system) it used over the next two seconds. A spinning
    /// accept loop uses most of a core (less on a loaded machine); a paused one next to none.
    static func cpuSecondsWhileSaturated(pid: Int32, initialDescriptors: Int) throws -> Double {
        let end = ContinuousClock.now + .seconds(5)
        while descriptorCount(pid: pid) < initialDescriptors + 10 && ContinuousClock.now < end {
            usleep(10_000)
        }
        let before = try cpuTicks(pid: pid)
        // The measurement window itself (not a wait for readiness).
        usleep(2_000_000)
        let after = try cpuTicks(pid: pid)
        return Double(after - before) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// utime + stime of `pid`, in clock ticks, from /proc/PID/stat.
    static func cpuTicks(pid: Int32) throws -> Int {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // Fields after the command name (which may hold spaces), from field 3 on.
        guard let close = stat.lastIndex(of: ")") else { throw TestFailure("odd /proc/\(pid)/stat: \(stat)") }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else {
            throw TestFailure("odd /proc/\(pid)/stat: \(stat)")
        }
        return user + system
    }

    static func descriptorCount(pid: Int32) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? 0
    }

    /// Polls until a request through the proxy gets the fault's 204.
    static func pollServed(port: Int) async throws {
        try await pollStatus(port: port, "GET / HTTP/1.1\r\nHost: a\r\n\r\n", expect: 204)
    }

    /// Sends `request` on fresh connections until one is answered with `status` (30 s at most:
    /// on a loaded runner the saturation phase alone took 36 s, its connects waiting out SYN
    /// retransmissions, and a listener that never resumes still fails however long this waits).
    static func pollStatus(port: Int, _ request: String, expect status: Int) async throws {
        let end = ContinuousClock.now + .seconds(30)
        while true {
            let answered = try await Blocking.run { () -> Int? in
                guard let client = try? RawClient(port: port, readTimeout: .milliseconds(300)) else { return nil }
                try? client.send(request)
                return client.readResponses(1, timeout: .milliseconds(500)).responses.first?.status
            }
            if answered == status { return }
            if ContinuousClock.now >= end { throw TestFailure("port \(port) did not answer \(status) again (last: \(answered.map(String.init) ?? "nothing"))") }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// One worker, an admin API, every request answered 204 by a status fault (no upstream
    /// connection), long client timeouts so idle clients hold their descriptors.
    static func config(maxConnections: Int) -> String {
        let root: [String: Any] = [
            "workers": 1,
            "listeners": [["address": "127.0.0.1:0"]],
            "admin": ["address": "127.0.0.1:0"],
            "upstreams": ["demo": ["url": "http://127.0.0.1:9"]],
            "routes": [["name": "all", "upstream": "demo", "faults": [["status": 204]]]],
            "limits": ["max_connections": maxConnections],
            "timeouts_ms": ["client_header": 30000, "client_idle": 30000],
        ]
        let data = (try? JSONSerialization.data(withJSONObject: root, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}

/// `faultline run` started through `prlimit --nofile=SOFT:HARD` (prlimit execs it, so the
/// process id is faultline's).
struct LimitedProxy {
    let child: ChildProcess
    let port: Int
    let adminPort: Int?

    static func start(config path: String, nofile: String) async throws -> LimitedProxy {
        let child = try ChildProcess(executable: "/usr/bin/prlimit",
                                     arguments: ["--nofile=\(nofile)", TestPaths.faultline, "run", "--config", path])
        let line = try await Deadline.poll("faultline to listen; output:\n\(child.output.text)", timeout: .seconds(15)) { () -> String? in
            if let line = child.output.lines.map(\.text).first(where: { $0.contains("faultline: listening on ") }) { return line }
            if !child.isRunning && child.output.isFinished { throw TestFailure("faultline exited early:\n\(child.output.text)") }
            return nil
        }
        guard let port = Int(line.split(separator: ":").last ?? "") else { throw TestFailure("no port in \(line)") }
        let adminLine = child.output.lines.map(\.text).first { $0.contains("admin API listening on ") }
        return LimitedProxy(child: child, port: port, adminPort: adminLine.flatMap { Int($0.split(separator: ":").last ?? "") })
    }
}
