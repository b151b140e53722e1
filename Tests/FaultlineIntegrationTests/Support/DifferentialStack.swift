import Foundation
import FaultlineTestSupport

/// The recording origin and a Faultline in front of it, with the routes the differential
/// corpus aims at:
/// - `/echo/`: plain; `/slow/`: a 0–20 ms delay; `/flaky/`: 503 from the proxy 30 % of the time
/// - `/fault/`: always 503 from the proxy, the upstream never called
/// - `/trunc/`, `/cut/`, `/rst/`: the response truncated at 100 bytes, closed or reset after 1000
/// - anything else (`/nf/`): no route, 404
/// Request bodies are limited to `bodyLimit` bytes (413 beyond).
final class DifferentialStack: Sendable {
    static let bodyLimit = 65536

    let origin: RecordingOrigin
    let proxy: FaultlineProcess
    let directory: TemporaryDirectory

    private init(origin: RecordingOrigin, proxy: FaultlineProcess, directory: TemporaryDirectory) {
        self.origin = origin
        self.proxy = proxy
        self.directory = directory
    }

    /// Starts both; `idle` is the upstream pool size per event loop.
    static func start(workers: Int, idle: Int = 4) async throws -> DifferentialStack {
        let origin = try await RecordingOrigin.start()
        let route = { (name: String, faults: [[String: Any]]) -> [String: Any] in
            ["name": name, "match": ["path_prefix": "/\(name)/"], "upstream": "o", "faults": faults]
        }
        let root: [String: Any] = [
            "workers": workers,
            "listeners": [["address": "127.0.0.1:0"]],
            "upstreams": ["o": ["url": "http://127.0.0.1:\(origin.port)", "max_idle_connections": idle,
                                "timeouts_ms": ["connect": 2000, "response": 8000]]],
            "routes": [
                route("echo", []),
                route("slow", [["delay": ["uniform": ["min_ms": 0, "max_ms": 20]]]]),
                route("flaky", [["status": 503, "when": ["probability": 0.3]]]),
                route("fault", [["status": 503]]),
                route("trunc", [["truncate": ["keep_bytes": 100]]]),
                route("cut", [["close": ["after_bytes": 1000]]]),
                route("rst", [["reset": ["after_bytes": 1000]]]),
            ],
            "timeouts_ms": ["client_header": 10000, "client_idle": 30000, "drain": 1000],
            "limits": ["max_request_body_bytes": bodyLimit],
            "seed": 9,
            "log": ["off": true],
            "har": ["enabled": false],
        ]
        let directory = try TemporaryDirectory()
        let data = try JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys])
        let path = try directory.write("faultline.json", data)
        let proxy = try await FaultlineProcess.run(config: path)
        return DifferentialStack(origin: origin, proxy: proxy, directory: directory)
    }

    var port: Int { proxy.port }

    func stop() {
        proxy.kill()
        origin.kill()
    }
}
