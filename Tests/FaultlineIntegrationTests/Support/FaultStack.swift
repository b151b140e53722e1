import Foundation
import FaultlineTestSupport

/// A demo origin and a Faultline proxy whose routes carry faults, written as JSON text so a
/// test reads like the config a user writes. One event loop (`workers: 1`) unless asked,
/// so "never blocks other exchanges" and "same seed, same decisions" are tested on the
/// hardest setting. Both processes are killed when the stack is dropped or stopped.
final class FaultStack: Sendable {
    /// One route: `match` and `faults` are JSON text (`nil` match = every request).
    struct Route: Sendable {
        var name: String
        var match: String? = nil
        var faults: String = "[]"
    }

    let origin: OriginProcess
    let proxy: FaultlineProcess
    let directory: TemporaryDirectory
    let configPath: String

    private init(origin: OriginProcess, proxy: FaultlineProcess, directory: TemporaryDirectory, configPath: String) {
        self.origin = origin
        self.proxy = proxy
        self.directory = directory
        self.configPath = configPath
    }

    /// The config text for `routes` in front of the origin at `originPort`; `topLevel` is
    /// extra top-level members as JSON text without braces (`"seed": 42`).
    static func configText(originPort: Int, routes: [Route], topLevel: String = "", workers: Int = 1) -> String {
        let routeTexts = routes.map { route in
            var members = ["\"name\": \(quoted(route.name))", "\"upstream\": \"o\""]
            if let match = route.match { members.append("\"match\": \(match)") }
            members.append("\"faults\": \(route.faults)")
            return "    {" + members.joined(separator: ", ") + "}"
        }
        var members = [
            "\"workers\": \(workers)",
            "\"listeners\": [{\"address\": \"127.0.0.1:0\"}]",
            "\"upstreams\": {\"o\": {\"url\": \"http://127.0.0.1:\(originPort)\", \"timeouts_ms\": {\"connect\": 1000, \"response\": 5000}}}",
            "\"timeouts_ms\": {\"client_header\": 2000, \"client_idle\": 60000, \"drain\": 1000}",
            "\"routes\": [\n" + routeTexts.joined(separator: ",\n") + "\n  ]",
        ]
        if !topLevel.isEmpty { members.append(topLevel) }
        return "{\n  " + members.joined(separator: ",\n  ") + "\n}\n"
    }

    /// Starts a demo origin (or uses `origin`), then the proxy with `routes`.
    static func start(routes: [Route], topLevel: String = "", workers: Int = 1,
                      origin existing: OriginProcess? = nil) async throws -> FaultStack {
        let origin: OriginProcess
        if let existing { origin = existing } else { origin = try await OriginProcess.demo() }
        let directory = try TemporaryDirectory()
        let text = configText(originPort: origin.port, routes: routes, topLevel: topLevel, workers: workers)
        guard (try? JSONSerialization.jsonObject(with: Data(text.utf8))) != nil else {
            throw TestFailure("the test wrote invalid JSON:\n\(text)")
        }
        let configPath = try directory.write("faultline.json", text)
        let proxy = try await FaultlineProcess.run(config: configPath)
        return FaultStack(origin: origin, proxy: proxy, directory: directory, configPath: configPath)
    }

    /// One catch-all route named `name` with `faults` (a JSON array, or one fault object).
    static func single(_ name: String, faults: String, topLevel: String = "") async throws -> FaultStack {
        let array = faults.trimmingCharacters(in: .whitespaces).hasPrefix("[") ? faults : "[\(faults)]"
        return try await start(routes: [Route(name: name, faults: array)], topLevel: topLevel)
    }

    var port: Int { proxy.port }
    func url(_ path: String) -> String { proxy.url(path) }

    func stop() {
        proxy.kill()
        origin.kill()
    }

    deinit { stop() }

    private static func quoted(_ text: String) -> String {
        let data = try! JSONSerialization.data(withJSONObject: [text])
        return String(String(decoding: data, as: UTF8.self).dropFirst().dropLast())
    }
}
