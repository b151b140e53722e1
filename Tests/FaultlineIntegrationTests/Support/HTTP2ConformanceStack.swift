import Foundation
import FaultlineTestSupport

/// A `ConformanceOrigin` behind a Faultline proxy with one h2c listener, an admin API and the
/// given `http2` config block, for frame-level tests with `h2probe.py`.
final class HTTP2ConformanceStack: Sendable {
    let origin: ConformanceOrigin
    let proxy: FaultlineProcess
    let directory: TemporaryDirectory
    let adminPort: Int

    private init(origin: ConformanceOrigin, proxy: FaultlineProcess, directory: TemporaryDirectory, adminPort: Int) {
        self.origin = origin
        self.proxy = proxy
        self.directory = directory
        self.adminPort = adminPort
    }

    /// Starts the stack; `http2` is the config's `http2` object as JSON text.
    /// `topLevel`: more top-level config members, e.g. `"fault_headers": {"enabled": true},`
    /// (with its trailing comma).
    static func start(http2: String = "{}", topLevel: String = "") async throws -> HTTP2ConformanceStack {
        let origin = try await ConformanceOrigin.start()
        let directory = try TemporaryDirectory()
        let text = """
        {"workers": 1, \(topLevel)
         "listeners": [{"address": "127.0.0.1:0", "h2c": true}],
         "admin": {"address": "127.0.0.1:0"},
         "upstreams": {"o": {"url": "http://127.0.0.1:\(origin.port)", "timeouts_ms": {"connect": 1000, "response": 20000}}},
         "timeouts_ms": {"client_header": 5000, "client_idle": 60000},
         "http2": \(http2),
         "routes": [{"name": "all", "upstream": "o"}]}
        """
        guard (try? JSONSerialization.jsonObject(with: Data(text.utf8))) != nil else {
            throw TestFailure("the test wrote invalid JSON:\n\(text)")
        }
        let path = try directory.write("faultline.json", text)
        let proxy = try await FaultlineProcess.run(["--config", path])
        let line = try await proxy.output.waitForLine(containing: "admin API listening on ")
        guard let adminPort = Int(line.text.split(separator: ":").last ?? "") else { throw TestFailure("no admin port in \(line.text)") }
        return HTTP2ConformanceStack(origin: origin, proxy: proxy, directory: directory, adminPort: adminPort)
    }

    /// The HTTP/2 counters of `GET /metrics` (`faultline_http2_KEY_total`, by KEY) once they equal
    /// `expected`, or as they are after 10 s (the loop counts a frame as it writes it, just
    /// before the client can see it).
    func http2Metrics(expecting expected: [String: Int]) async throws -> [String: Int] {
        var counters: [String: Int] = [:]
        let end = ContinuousClock.now + .seconds(10)
        repeat {
            let scrape = try await MetricsScrape.read(adminPort: adminPort)
            counters = [:]
            for key in expected.keys {
                counters[key] = scrape.value("faultline_http2_\(key)_total").map { Int($0) }
            }
            if counters == expected { return counters }
            try await Task.sleep(for: .milliseconds(100))
        } while ContinuousClock.now < end
        return counters
    }

    /// Runs an h2probe scenario on a new connection to the proxy: `actions`, plus `extra`
    /// top-level members (`settings`, `timeout`, `final_wait`, …).
    func probe(_ actions: [[String: Any]], _ extra: [String: Any] = [:]) async throws -> H2ProbeReport {
        let json = try Self.scenario(port: proxy.port, actions, extra)
        return try await Blocking.run { try H2Probe.run(json: json) }
    }

    /// As `probe`, with the frame log on, the report as a JSON object, for what
    /// `H2ProbeReport` does not decode (`frame_log`: every frame received, its flags and codes).
    func probeFrames(_ actions: [[String: Any]], _ extra: [String: Any] = [:]) async throws -> [String: Any] {
        var all = extra
        all["frame_log"] = true
        let json = try Self.scenario(port: proxy.port, actions, all)
        let result = try await Blocking.run { try Command.launch([TestPaths.python3, H2Probe.script, "-"], input: json, timeout: .seconds(60)) }
        guard result.status == 0, let report = try? JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any] else {
            throw TestFailure("h2probe failed (\(result.status)): \(result.output) \(result.error)")
        }
        return report
    }

    /// The frames of a `probeFrames` report received on `stream` (0: the connection's).
    static func frames(_ report: [String: Any], stream: Int) -> [[String: Any]] {
        ((report["frame_log"] as? [[String: Any]]) ?? []).filter { $0["stream"] as? Int == stream }
    }

    private static func scenario(port: Int, _ actions: [[String: Any]], _ extra: [String: Any]) throws -> String {
        var scenario: [String: Any] = ["connect": H2Probe.target(port: port), "timeout": 5, "actions": actions]
        scenario.merge(extra) { $1 }
        guard let data = try? JSONSerialization.data(withJSONObject: scenario) else {
            throw TestFailure("the h2probe scenario is not JSON: \(scenario)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// One GET on a fresh connection: whether the proxy still serves (status 200, body `ok`).
    func freshConnectionServes() async throws -> Bool {
        let report = try await probe([["do": "request", "label": "fresh", "path": "/fresh"]])
        return report.stream(labelled: "fresh")?.status == 200 && report.stream(labelled: "fresh")?.body == "ok"
    }

    /// Runs `script` with /usr/bin/python3 and `arguments`, bounded in time.
    func python(_ script: String, _ arguments: [String], timeout: Duration = .seconds(40)) async throws -> CommandResult {
        let path = try directory.write("client-\(UUID().uuidString).py", script)
        return try await Blocking.run { try Command.launch([TestPaths.python3, path] + arguments, timeout: timeout) }
    }

    /// The proxy's exchange records (JSON lines of kind `exchange`).
    var records: [[String: Any]] {
        proxy.output.lines.compactMap { line -> [String: Any]? in
            guard line.text.contains("\"kind\":\"exchange\"") else { return nil }
            return (try? JSONSerialization.jsonObject(with: Data(line.text.utf8))) as? [String: Any]
        }
    }

    /// The proxy process's resident set size in KiB (`VmRSS` in /proc).
    var proxyRSSKiB: Int? { ProcessMemory.residentKiB(proxy.child.pid) }

    func stop() {
        proxy.kill()
        origin.kill()
    }

    deinit { stop() }
}
