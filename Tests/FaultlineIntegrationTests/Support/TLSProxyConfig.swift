import Foundation
import FaultlineTestSupport

/// Faultline configs with TLS listeners and https upstreams, as JSON objects, and a running
/// proxy started from one (with its admin API port when configured).
enum TLSProxyConfig {
    /// An https upstream at `https://HOST:PORT` trusting `caFile` alone, with optional pins.
    static func upstream(port: Int, caFile: String, host: String = "localhost", serverName: String? = nil,
                         pins: [String: Any]? = nil, maxIdle: Int? = nil) -> [String: Any] {
        var object: [String: Any] = [
            "url": "https://\(host):\(port)",
            "trust": ["ca_file": caFile, "system": false],
            "timeouts_ms": ["connect": 2000, "response": 5000],
        ]
        if let serverName { object["server_name"] = serverName }
        if let pins { object["pins"] = pins }
        if let maxIdle { object["max_idle_connections"] = maxIdle }
        return object
    }

    /// A plain loopback listener.
    static var plainListener: [String: Any] { ["address": "127.0.0.1:0"] }

    /// A TLS loopback listener on an ephemeral port.
    static func tlsListener(certificate: String, key: String, extra: [String: Any] = [:]) -> [String: Any] {
        var tls: [String: Any] = ["certificate": certificate, "key": key]
        for (name, value) in extra { tls[name] = value }
        return ["address": "127.0.0.1:0", "tls": tls]
    }

    /// A whole config: listeners, upstreams, routes (implied when absent), admin API on.
    static func root(listeners: [[String: Any]], upstreams: [String: [String: Any]], routes: [[String: Any]]? = nil,
                     clientHeaderMs: Int = 2000, workers: Int = 2, admin: Bool = true) -> [String: Any] {
        var root: [String: Any] = [
            "workers": workers,
            "listeners": listeners,
            "upstreams": upstreams,
            "timeouts_ms": ["client_header": clientHeaderMs, "client_idle": 10_000, "drain": 1000],
        ]
        if let routes { root["routes"] = routes }
        if admin { root["admin"] = ["address": "127.0.0.1:0"] }
        return root
    }

    static func json(_ object: [String: Any]) -> String {
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }
}

/// A running `faultline run` started from a TLS config written to a temporary directory.
final class TLSProxy: Sendable {
    let process: FaultlineProcess
    let directory: TemporaryDirectory
    let configPath: String
    /// The admin API port, when the config has `admin`.
    let adminPort: Int?

    private init(process: FaultlineProcess, directory: TemporaryDirectory, configPath: String, adminPort: Int?) {
        self.process = process
        self.directory = directory
        self.configPath = configPath
        self.adminPort = adminPort
    }

    static func start(_ config: [String: Any]) async throws -> TLSProxy {
        let directory = try TemporaryDirectory()
        let configPath = try directory.write("faultline.json", TLSProxyConfig.json(config))
        let listeners = (config["listeners"] as? [Any])?.count ?? 1
        let process = try await FaultlineProcess.run(["--config", configPath], listeners: listeners)
        var adminPort: Int?
        if config["admin"] != nil {
            let line = try await process.output.waitForLine(containing: "admin API listening on ")
            adminPort = Int(line.text.split(separator: ":").last ?? "")
        }
        return TLSProxy(process: process, directory: directory, configPath: configPath, adminPort: adminPort)
    }

    var output: OutputLog { process.output }
    var port: Int { process.port }
    var ports: [Int] { process.ports }

    /// `http://127.0.0.1:PORT/path` on the first listener.
    func url(_ path: String) -> String { process.url(path) }

    /// `GET /pins` on the admin API, decoded; the entry of `upstream`.
    func pinStatus(_ upstream: String) async throws -> [String: Any] {
        guard let adminPort else { throw TestFailure("no admin API configured") }
        let result = try await Curl.run(["http://127.0.0.1:\(adminPort)/pins"])
        guard result.exitCode == 0 else { throw TestFailure("GET /pins failed: \(result.exitCode) \(result.stderr)") }
        let object = try JSONObject.parse(result.stdout)
        guard let upstreams = object["upstreams"] as? [String: Any], let entry = upstreams[upstream] as? [String: Any] else {
            throw TestFailure("no upstream \(upstream) in /pins: \(result.text)")
        }
        return entry
    }

    func kill() { process.kill() }
}
