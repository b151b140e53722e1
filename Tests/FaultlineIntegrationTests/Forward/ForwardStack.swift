import Foundation
import FaultlineTestSupport

/// A forward proxy (`faultline run --forward 127.0.0.1:0 --admin 127.0.0.1:0 --certs DIR`, or a
/// config file) in front of the demo origin, for clients that use it as their proxy.
struct ForwardStack {
    let origin: OriginProcess
    let proxy: FaultlineProcess
    let adminPort: Int
    let directory: TemporaryDirectory

    var proxyURL: String { "http://127.0.0.1:\(proxy.port)" }
    var adminURL: String { "http://127.0.0.1:\(adminPort)" }
    /// The CA the proxy mints (or found) in its certs directory.
    var caPath: String { directory.path("certs/ca.pem") }

    /// The one-line mode, with `extra` arguments; `launcher` runs the proxy (`HeldDNS`).
    static func start(_ extra: [String] = [], launcher: [String] = []) async throws -> ForwardStack {
        let origin = try await OriginProcess.demo()
        let directory = try TemporaryDirectory()
        let proxy = try await FaultlineProcess.run(
            ["--forward", "127.0.0.1:0", "--admin", "127.0.0.1:0", "--certs", directory.path("certs")] + extra, launcher: launcher)
        return try await ready(origin: origin, proxy: proxy, directory: directory)
    }

    /// A config file: `listener` is the forward listener's object (address added), plus an admin
    /// API; `flags` are command-line arguments after `--config FILE` (`--certs DIR`).
    static func start(forward: [String: Any], routes: [[String: Any]] = [], extra: [String: Any] = [:],
                      flags: [String] = [], launcher: [String] = []) async throws -> ForwardStack {
        let origin = try await OriginProcess.demo()
        let directory = try TemporaryDirectory()
        var forwardObject = forward
        if forwardObject["ca"] == nil {
            forwardObject["ca"] = ["certificate": directory.path("certs/ca.pem"), "key": directory.path("certs/ca-key.pem")]
        }
        var root: [String: Any] = [
            "listeners": [["address": "127.0.0.1:0", "mode": "forward", "forward": forwardObject]],
            "admin": ["address": "127.0.0.1:0"],
        ]
        if !routes.isEmpty { root["routes"] = routes }
        for (key, value) in extra { root[key] = value }
        let data = try JSONSerialization.data(withJSONObject: root, options: [.sortedKeys])
        let path = try directory.write("forward.json", String(decoding: data, as: UTF8.self))
        let proxy = try await FaultlineProcess.run(config: path, flags, launcher: launcher)
        return try await ready(origin: origin, proxy: proxy, directory: directory)
    }

    private static func ready(origin: OriginProcess, proxy: FaultlineProcess, directory: TemporaryDirectory) async throws -> ForwardStack {
        let line = try await proxy.output.waitForLine(containing: "faultline: admin API listening on ")
        guard let port = Int(line.text.split(separator: ":").last ?? "") else { throw TestFailure("no admin port in \(line.text)") }
        return ForwardStack(origin: origin, proxy: proxy, adminPort: port, directory: directory)
    }

    /// curl through the proxy: `-x PROXY`, `-w` with the status last.
    func curl(_ arguments: [String], maxTime: Int = 10) async throws -> (result: CurlResult, status: Int?) {
        let result = try await Curl.run(["-x", proxyURL, "-w", "\n%{http_code}"] + arguments, maxTime: maxTime)
        let status = result.text.split(separator: "\n").last.flatMap { Int($0) }
        return (result, status)
    }

    /// The journal's records (`GET /requests`).
    func journal() async throws -> [[String: Any]] {
        let result = try await Curl.run([adminURL + "/requests"])
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any]
        return object?["requests"] as? [[String: Any]] ?? []
    }

    /// Adds an admin rule (JSON text).
    func addRule(_ json: String) async throws {
        let result = try await Curl.run(["-X", "POST", "-H", "Content-Type: application/json", "--data-binary", json,
                                         "-w", "\n%{http_code}", adminURL + "/rules"])
        guard result.text.hasSuffix("\n201") || result.text.hasSuffix("\n200") else {
            throw TestFailure("rule refused: \(result.text) \(result.stderr)")
        }
    }

    func stop() {
        proxy.kill()
        origin.kill()
    }
}

extension ForwardStack {
    /// Replaces an admin rule (JSON text without the name).
    func replaceRule(_ name: String, _ json: String) async throws {
        let result = try await Curl.run(["-X", "PUT", "-H", "Content-Type: application/json", "--data-binary", json,
                                         "-w", "\n%{http_code}", adminURL + "/rules/" + name])
        guard result.text.hasSuffix("\n200") || result.text.hasSuffix("\n201") else {
            throw TestFailure("rule replacement refused: \(result.text) \(result.stderr)")
        }
    }
}
