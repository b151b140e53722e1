import Foundation
import Testing
import FaultlineTestSupport

/// With `worker_affinity: auto` and as many workers as CPUs the process may run on, each
/// worker's thread is bound to a CPU of its own; by default (`none`), or with any other worker
/// count, the kernel places them. Seen from outside in `/proc`: each worker thread's name
/// (`worker-N`) and its `Cpus_allowed_list`, and in the line the proxy prints at start. The
/// proxy serves either way.
@Suite(.timeLimit(.minutes(1)))
struct WorkerAffinityTests {
    @Test func oneWorkerPerAllowedCPUBindsEachToItsOwn() async throws {
        let cpus = try ProcessStatus.allowedCPUs(inFile: "/proc/self/status")
        let stack = try await Self.stack(workers: cpus.count, affinity: "auto")
        defer { stack.stop() }

        let bindings = try Self.workerCPUs(stack.proxy.child.pid)
        #expect(bindings == cpus.map { [$0] }, "worker threads' CPUs \(bindings), the process may use \(cpus)")
        #expect(stack.proxy.output.text.contains("\(cpus.count) worker(s), each bound to a CPU of its own"),
                "\(stack.proxy.output.text)")
        #expect(try await FaultCurl.get(stack.proxy.url("/bytes/16")).httpCode == 200)
    }

    @Test(arguments: [nil, "none"])
    func byDefaultAndWithNoneEveryWorkerIsFree(affinity: String?) async throws {
        let cpus = try ProcessStatus.allowedCPUs(inFile: "/proc/self/status")
        let stack = try await Self.stack(workers: cpus.count, affinity: affinity)
        defer { stack.stop() }

        let bindings = try Self.workerCPUs(stack.proxy.child.pid)
        #expect(bindings == Array(repeating: cpus, count: cpus.count), "worker threads' CPUs \(bindings)")
        #expect(stack.proxy.output.text.contains("not bound to CPUs: worker_affinity is none"), "\(stack.proxy.output.text)")
        #expect(try await FaultCurl.get(stack.proxy.url("/bytes/16")).httpCode == 200)
    }

    @Test func moreWorkersThanCPUsAreNotBound() async throws {
        let cpus = try ProcessStatus.allowedCPUs(inFile: "/proc/self/status")
        let stack = try await Self.stack(workers: cpus.count + 1, affinity: "auto")
        defer { stack.stop() }

        let bindings = try Self.workerCPUs(stack.proxy.child.pid)
        #expect(bindings == Array(repeating: cpus, count: cpus.count + 1), "worker threads' CPUs \(bindings)")
        #expect(stack.proxy.output.text.contains("\(cpus.count + 1) worker(s), not bound to CPUs: \(cpus.count + 1) worker(s) for \(cpus.count) CPU(s)"),
                "\(stack.proxy.output.text)")
        #expect(try await FaultCurl.get(stack.proxy.url("/bytes/16")).httpCode == 200)
    }

    /// `workers: 0` starts one worker per CPU the process may run on, not per online CPU: under
    /// `taskset -c N`, one.
    @Test func defaultWorkersAreOnePerAllowedCPU() async throws {
        let cpus = try ProcessStatus.allowedCPUs(inFile: "/proc/self/status")
        guard let last = cpus.last else { throw TestFailure("no CPU allowed") }
        let origin = try await OriginProcess.demo()
        defer { origin.kill() }
        let directory = try TemporaryDirectory()
        var config = ProxyConfig.single(port: origin.port)
        config.workers = 0
        config.workerAffinity = "auto"
        let path = try directory.write("faultline.json", config.json)
        for (launcher, expected) in [([String](), cpus), (["/usr/bin/taskset", "-c", "\(last)"], [last])] {
            let proxy = try await FaultlineProcess.run(config: path, launcher: launcher)
            defer { proxy.kill() }
            #expect(try Self.workerCPUs(proxy.child.pid) == expected.map { [$0] }, "launcher \(launcher)")
            #expect(proxy.output.text.contains("\(expected.count) worker(s), each bound to a CPU of its own"), "\(proxy.output.text)")
            #expect(try await FaultCurl.get(proxy.url("/bytes/16")).httpCode == 200)
        }
    }

    @Test func anUnknownAffinityIsRefusedByName() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("faultline.json", """
            {"worker_affinity": "always", "listeners": [{"address": "127.0.0.1:0"}],
             "upstreams": {"o": {"url": "http://127.0.0.1:9"}}, "routes": [{"name": "all", "upstream": "o"}]}
            """)
        let result = try await FaultlineProcess.command(["check-config", path])
        #expect(result.status == 3)
        #expect(result.output.contains("worker_affinity: expected \"auto\" or \"none\", got \"always\""), "\(result.output)")
    }

    /// The demo origin behind a proxy of `workers` workers (at most 256, the config's limit).
    private static func stack(workers: Int, affinity: String?) async throws -> ProxyStack {
        guard workers <= 256 else { throw TestFailure("this machine allows \(workers - 1) CPUs; the config takes at most 256 workers") }
        return try await ProxyStack.demo { port in
            var config = ProxyConfig.single(port: port)
            config.workers = workers
            config.workerAffinity = affinity
            return config
        }
    }

    /// The CPUs each worker thread of `pid` may run on, in worker order (threads named `worker-N`).
    private static func workerCPUs(_ pid: Int32) throws -> [[Int]] {
        let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")
        var byWorker: [Int: [Int]] = [:]
        for task in tasks {
            let comm = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8)) ?? ""
            let name = comm.trimmingCharacters(in: .whitespacesAndNewlines)
            guard name.hasPrefix("worker-"), let index = Int(name.dropFirst("worker-".count)) else { continue }
            byWorker[index] = try ProcessStatus.allowedCPUs(inFile: "/proc/\(pid)/task/\(task)/status")
        }
        return byWorker.keys.sorted().compactMap { byWorker[$0] }
    }
}
