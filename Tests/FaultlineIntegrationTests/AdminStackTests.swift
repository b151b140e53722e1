import Foundation
import FaultlineTestSupport

/// The demo origin and a Faultline proxy with an admin listener (port 0), from a config file
/// in a temporary directory; killed when dropped. Lives here rather than in Support/ only
/// because this work owns `Admin*Tests.swift` files; it belongs beside `ProxyStack`.
final class AdminStack: Sendable {
    let origin: OriginProcess
    let proxy: FaultlineProcess
    let directory: TemporaryDirectory
    let adminPort: Int
    let token: String?

    private init(origin: OriginProcess, proxy: FaultlineProcess, directory: TemporaryDirectory, adminPort: Int, token: String?) {
        self.origin = origin
        self.proxy = proxy
        self.directory = directory
        self.adminPort = adminPort
        self.token = token
    }

    /// Routes of the file: `users` (a 5 ms delay on /users) and `all`, both to upstream `demo`.
    static var fileRoutes: [[String: Any]] {
        [
            ["name": "users", "match": ["path_prefix": "/users"], "upstream": "demo", "faults": [["delay": 5]]],
            ["name": "all", "upstream": "demo"],
        ]
    }

    static func config(originPort: Int, token: String?, routes: [[String: Any]] = fileRoutes,
                       extra: [String: Any] = [:]) -> String {
        var admin: [String: Any] = ["address": "127.0.0.1:0"]
        if let token { admin["token"] = token }
        var root: [String: Any] = [
            "workers": 1,
            "listeners": [["address": "127.0.0.1:0"]],
            "admin": admin,
            "upstreams": ["demo": ["url": "http://127.0.0.1:\(originPort)", "timeouts_ms": ["connect": 1000, "response": 5000]]],
            "routes": routes,
            "seed": 42,
        ]
        root.merge(extra) { _, new in new }
        let data = (try? JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// `extra` top-level keys replace the defaults (e.g. `timeouts_ms`, `limits`).
    static func start(token: String? = nil, routes: [[String: Any]] = fileRoutes,
                      extra: [String: Any] = [:]) async throws -> AdminStack {
        let origin = try await OriginProcess.demo()
        let directory = try TemporaryDirectory()
        let path = try directory.write("faultline.json", config(originPort: origin.port, token: token, routes: routes, extra: extra))
        let proxy = try await FaultlineProcess.run(config: path)
        let marker = "faultline: admin API listening on "
        let line = try await proxy.output.waitForLine(containing: marker)
        guard let port = Int(line.text.split(separator: ":").last ?? "") else { throw TestFailure("no admin port in \(line.text)") }
        return AdminStack(origin: origin, proxy: proxy, directory: directory, adminPort: port, token: token)
    }

    var adminURL: String { "http://127.0.0.1:\(adminPort)" }

    /// One admin request through curl: the status and the body parsed as a JSON object (empty for 204).
    func admin(_ method: String, _ path: String, body: String? = nil, token: String?? = nil) async throws -> (status: Int, json: [String: Any]) {
        var arguments = ["-X", method, "-w", "\n%{http_code}"]
        if let bearer = token ?? self.token { arguments += ["-H", "Authorization: Bearer \(bearer)"] }
        // Every change is typed JSON, bodiless ones too (the admin API refuses others: CSRF).
        if method != "GET" { arguments += ["-H", "Content-Type: application/json"] }
        if let body { arguments += ["--data-binary", body] }
        // Generous: a GET of thousands of rules renders a large body, slowly on a loaded runner.
        let result = try await Curl.run(arguments + [adminURL + path], maxTime: 30)
        let text = result.text
        guard result.exitCode == 0, let newline = text.lastIndex(of: "\n"), let status = Int(text[text.index(after: newline)...]) else {
            throw TestFailure("curl \(method) \(path): exit \(result.exitCode) \(result.stderr) \(text)")
        }
        let payload = text[..<newline]
        if payload.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return (status, [:]) }
        return (status, try JSONObject.parse(Array(payload.utf8)))
    }

    /// The status curl gets for `path` through the proxy.
    func status(of path: String) async throws -> Int {
        let result = try await Curl.run(["-o", "/dev/null", "-w", "%{http_code}", proxy.url(path)])
        guard let status = Int(result.text) else { throw TestFailure("curl \(path): \(result.exitCode) \(result.stderr)") }
        return status
    }

    /// The rules of `GET /rules`, and the rule called `name` among them.
    func rules() async throws -> [[String: Any]] {
        let (status, json) = try await admin("GET", "/rules")
        guard status == 200, let rules = json["rules"] as? [[String: Any]] else { throw TestFailure("GET /rules: \(status) \(json)") }
        return rules
    }

    func ruleNames() async throws -> [String] {
        try await rules().compactMap { $0["name"] as? String }
    }

    func stop() {
        proxy.kill()
        origin.kill()
    }
}
