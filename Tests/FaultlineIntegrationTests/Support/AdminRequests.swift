import Foundation
import FaultlineTestSupport

/// Admin API requests through curl, for any proxy with an admin listener.
enum AdminRequests {
    /// One request: the status and the body bytes.
    static func send(port: Int, _ method: String, _ path: String, token: String? = nil) async throws -> (status: Int, body: [UInt8]) {
        let marker = "\n@@admin-status@@ "
        var arguments = ["-X", method, "-w", "\(marker)%{http_code}"]
        if let token { arguments += ["-H", "Authorization: Bearer \(token)"] }
        let result = try await Curl.run(arguments + ["http://127.0.0.1:\(port)\(path)"])
        let bytes = result.stdout
        guard result.exitCode == 0, let range = bytes.lastOccurrence(of: Array(marker.utf8)),
              let status = Int(String(decoding: bytes[range.upperBound...], as: UTF8.self)) else {
            throw TestFailure("admin \(method) \(path): curl exit \(result.exitCode) \(result.stderr) \(result.text.prefix(500))")
        }
        return (status, Array(bytes[..<range.lowerBound]))
    }

    /// One request whose answer must be 200 JSON; the decoded object.
    static func json(port: Int, _ method: String, _ path: String) async throws -> [String: Any] {
        let (status, body) = try await send(port: port, method, path)
        guard status == 200 else {
            throw TestFailure("admin \(method) \(path) answered \(status): \(String(decoding: body, as: UTF8.self).prefix(500))")
        }
        return try JSONObject.parse(body)
    }
}

extension TLSProxy {
    /// The admin port; fails the test when the config has no admin listener.
    func requireAdminPort() throws -> Int {
        guard let adminPort else { throw TestFailure("no admin API configured") }
        return adminPort
    }

    /// `GET /har`, decoded, with its raw text.
    func har() async throws -> (object: [String: Any], text: String) {
        let (status, body) = try await AdminRequests.send(port: try requireAdminPort(), "GET", "/har")
        guard status == 200 else { throw TestFailure("GET /har answered \(status): \(String(decoding: body, as: UTF8.self).prefix(500))") }
        return (try JSONObject.parse(body), String(decoding: body, as: UTF8.self))
    }

    /// `GET /log`, decoded.
    func logStatus() async throws -> [String: Any] {
        try await AdminRequests.json(port: try requireAdminPort(), "GET", "/log")
    }
}

extension Array where Element == UInt8 {
    /// The last occurrence of `needle`.
    func lastOccurrence(of needle: [UInt8]) -> Range<Int>? {
        guard !needle.isEmpty, needle.count <= count else { return nil }
        var start = count - needle.count
        while start >= 0 {
            if self[start..<start + needle.count].elementsEqual(needle) { return start..<start + needle.count }
            start -= 1
        }
        return nil
    }
}

/// Pieces of configs for the logging tests (the rest comes from `TLSProxyConfig.root`).
enum LoggingConfig {
    /// A plain http upstream.
    static func httpUpstream(port: Int, connectMs: Int = 1000, responseMs: Int = 5000) -> [String: Any] {
        ["url": "http://127.0.0.1:\(port)", "timeouts_ms": ["connect": connectMs, "response": responseMs]]
    }

    /// A route named `name` for paths starting with `prefix`, with `faults`.
    static func route(_ name: String, prefix: String? = nil, upstream: String, faults: [[String: Any]] = []) -> [String: Any] {
        var route: [String: Any] = ["name": name, "upstream": upstream]
        if let prefix { route["match"] = ["path_prefix": prefix] }
        if !faults.isEmpty { route["faults"] = faults }
        return route
    }

    /// A whole config with one plain listener, admin on, `upstreams`, `routes` and the
    /// `log` (and optionally `har`) sections.
    static func root(upstreams: [String: [String: Any]], routes: [[String: Any]], log: [String: Any],
                     har: [String: Any]? = nil, limits: [String: Any]? = nil, workers: Int = 2) -> [String: Any] {
        var root = TLSProxyConfig.root(listeners: [TLSProxyConfig.plainListener], upstreams: upstreams, routes: routes,
                                       workers: workers)
        root["log"] = log
        if let har { root["har"] = har }
        if let limits { root["limits"] = limits }
        return root
    }
}
