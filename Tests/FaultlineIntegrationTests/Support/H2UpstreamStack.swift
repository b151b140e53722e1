import Foundation
import FaultlineTestSupport

/// Faultline in front of `h2origin.py` with the upstream's `protocol` set to `h2c` (or `h2`
/// over TLS): the config, the running proxy and the origin's view of what arrived.
enum H2UpstreamStack {
    /// An upstream speaking h2c to `port`, with optional extra fields (timeouts and so on).
    static func h2cUpstream(port: Int, extra: [String: Any] = [:]) -> [String: Any] {
        var object: [String: Any] = ["url": "http://127.0.0.1:\(port)", "protocol": "h2c",
                                     "timeouts_ms": ["connect": 2000, "response": 5000]]
        for (key, value) in extra { object[key] = value }
        return object
    }

    /// An https upstream speaking h2 (ALPN) to `port`, trusting `caFile`, with optional pins.
    static func h2Upstream(port: Int, caFile: String, pins: [String]? = nil) -> [String: Any] {
        var object = TLSProxyConfig.upstream(port: port, caFile: caFile,
                                             pins: pins.map { ["sha256": $0, "mode": "enforce"] })
        object["protocol"] = "h2"
        return object
    }

    /// A proxy with one plain listener, upstream `o`, one loop and a JSON traffic log file.
    static func proxy(upstream: [String: Any]) async throws -> TLSProxy {
        var config = TLSProxyConfig.root(listeners: [TLSProxyConfig.plainListener], upstreams: ["o": upstream], workers: 1)
        config["log"] = ["format": "json", "destination": "file", "path": "traffic.log"]
        return try await TLSProxy.start(config)
    }

    /// The origin's `conn N open …` lines: one per connection it accepted.
    static func connections(_ origin: H2Origin) -> [String] {
        origin.output.settledLines.map(\.text).filter { $0.hasPrefix("conn ") && $0.contains(" open ") }
    }

    /// The most requests one origin connection had in flight at once, judged from arrival
    /// times: requests to `/slow` answered after `holdMs` that arrived within half that time
    /// of each other were in flight together.
    static func mostInFlight(_ origin: H2Origin, holdMs: Int) -> Int {
        let lines = origin.output.settledLines.filter { $0.text.contains(" request ") && $0.text.contains(" /slow") }
        var most = 0
        for line in lines {
            let connection = line.text.split(separator: " ").prefix(2).joined(separator: " ")
            let together = lines.filter {
                $0.text.hasPrefix(connection + " ") && $0.time >= line.time
                    && $0.time < line.time + .milliseconds(holdMs / 2)
            }
            most = max(most, together.count)
        }
        return most
    }
}
