import Foundation
import FaultlineTestSupport

/// The demo origin and a proxy with a plain listener, an h2c listener and an admin API
/// (all port 0), for the session and journal tests; killed when stopped.
final class SessionStack: Sendable {
    let origin: OriginProcess
    let proxy: FaultlineProcess
    let directory: TemporaryDirectory
    let adminPort: Int

    private init(origin: OriginProcess, proxy: FaultlineProcess, directory: TemporaryDirectory, adminPort: Int) {
        self.origin = origin
        self.proxy = proxy
        self.directory = directory
        self.adminPort = adminPort
    }

    /// Global routes: `users` (/users…, a 1 ms delay counted per request) and `all`, both to `demo`.
    static var fileRoutes: [[String: Any]] {
        [
            ["name": "users", "match": ["path_prefix": "/users"], "upstream": "demo", "faults": [["delay": 1]]],
            ["name": "all", "upstream": "demo"],
        ]
    }

    static func config(originPort: Int, routes: [[String: Any]] = fileRoutes, extra: [String: Any] = [:]) -> String {
        var root: [String: Any] = [
            "workers": 2,
            "listeners": [["address": "127.0.0.1:0"], ["address": "127.0.0.1:0", "h2c": true]],
            "admin": ["address": "127.0.0.1:0"],
            "upstreams": ["demo": ["url": "http://127.0.0.1:\(originPort)", "timeouts_ms": ["connect": 1000, "response": 5000]]],
            "routes": routes,
            "seed": 42,
            "log": ["off": true],
        ]
        root.merge(extra) { _, new in new }
        let data = (try? JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// `extra` top-level keys replace the defaults (e.g. `sessions`, `journal`).
    static func start(routes: [[String: Any]] = fileRoutes, extra: [String: Any] = [:]) async throws -> SessionStack {
        let origin = try await OriginProcess.demo()
        let directory = try TemporaryDirectory()
        let path = try directory.write("faultline.json", config(originPort: origin.port, routes: routes, extra: extra))
        let proxy = try await FaultlineProcess.run(["--config", path], listeners: 2)
        let line = try await proxy.output.waitForLine(containing: "faultline: admin API listening on ")
        guard let port = Int(line.text.split(separator: ":").last ?? "") else { throw TestFailure("no admin port in \(line.text)") }
        return SessionStack(origin: origin, proxy: proxy, directory: directory, adminPort: port)
    }

    func stop() {
        proxy.kill()
        origin.kill()
    }

    /// One admin request through curl: the status and the body as a JSON object (empty for 204).
    func admin(_ method: String, _ path: String, body: String? = nil) async throws -> (status: Int, json: [String: Any]) {
        var arguments = ["-X", method, "-w", "\n%{http_code}"]
        if method != "GET" { arguments += ["-H", "Content-Type: application/json"] }
        if let body { arguments += ["--data-binary", body] }
        let result = try await Curl.run(arguments + ["http://127.0.0.1:\(adminPort)\(path)"], maxTime: 30)
        let text = result.text
        guard result.exitCode == 0, let newline = text.lastIndex(of: "\n"), let status = Int(text[text.index(after: newline)...]) else {
            throw TestFailure("curl \(method) \(path): exit \(result.exitCode) \(result.stderr) \(text)")
        }
        let payload = text[..<newline]
        if payload.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return (status, [:]) }
        return (status, try JSONObject.parse(Array(payload.utf8)))
    }

    /// Creates a session; its id.
    func createSession(_ body: String = "{}") async throws -> String {
        let (status, json) = try await admin("POST", "/sessions", body: body)
        guard status == 201, let id = json["id"] as? String else { throw TestFailure("POST /sessions: \(status) \(json)") }
        return id
    }

    /// Adds `rule` (JSON) to session `id`.
    func addRule(_ id: String, _ rule: String) async throws {
        let (status, json) = try await admin("POST", "/sessions/\(id)/rules", body: rule)
        guard status == 201 else { throw TestFailure("POST /sessions/\(id)/rules: \(status) \(json)") }
    }

    /// The status and body of one request through the proxy, in session `id` when given.
    func request(_ path: String, session: String? = nil, http2: Bool = false, interface: String? = nil,
                 headers: [String] = []) async throws -> (status: Int, body: String) {
        var arguments = ["-s", "-w", "\n%{http_code}"]
        if let session { arguments += ["-H", "X-Faultline-Session: \(session)"] }
        if let interface { arguments += ["--interface", interface] }
        for header in headers { arguments += ["-H", header] }
        let port = http2 ? proxy.ports[1] : proxy.port
        if http2 { arguments.append("--http2-prior-knowledge") }
        let result = try await Curl.run(arguments + ["http://127.0.0.1:\(port)\(path)"])
        let text = result.text
        guard let newline = text.lastIndex(of: "\n"), let status = Int(text[text.index(after: newline)...]) else {
            throw TestFailure("curl \(path): exit \(result.exitCode) \(result.stderr) \(text)")
        }
        return (status, String(text[..<newline]))
    }

    /// The statuses of several requests over one keep-alive connection (curl reuses it).
    func statusesOnOneConnection(_ paths: [String], session: String?) async throws -> [Int] {
        var arguments = ["-s", "-o", "/dev/null", "-w", "%{http_code}\n"]
        if let session { arguments += ["-H", "X-Faultline-Session: \(session)"] }
        let result = try await Curl.run(arguments + paths.map { "http://127.0.0.1:\(proxy.port)\($0)" })
        return result.text.split(separator: "\n").compactMap { Int($0) }
    }

    /// A journal (`/requests` or `/sessions/{id}/requests`, with a query): entries and `dropped`.
    func journal(_ path: String) async throws -> (entries: [[String: Any]], dropped: Int) {
        let (status, json) = try await admin("GET", path)
        guard status == 200, let entries = json["requests"] as? [[String: Any]], let dropped = json["dropped"] as? Int else {
            throw TestFailure("GET \(path): \(status) \(json)")
        }
        return (entries, dropped)
    }
}
