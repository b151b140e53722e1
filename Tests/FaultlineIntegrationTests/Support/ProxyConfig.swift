import Foundation
import FaultlineTestSupport

/// A Faultline config file for tests: loopback listener on port 0, short timeouts.
struct ProxyConfig {
    struct Upstream {
        var port: Int
        var connectMs = 1000
        var responseMs = 5000
        /// `"preserve"` or `"upstream"`; nil leaves the default.
        var hostHeader: String? = nil
        var maxIdleConnections: Int? = nil
        /// `timeouts_ms.tunnel_idle`; nil leaves the default.
        var tunnelIdleMs: Int? = nil
    }

    var workers = 2
    var upstreams: [String: Upstream] = [:]
    /// Routes as JSON objects, in order.
    var routes: [[String: Any]] = []
    var clientHeaderMs = 2000
    var clientIdleMs = 60_000
    var drainMs = 5000
    var limits: [String: Any] = [:]
    /// The listener's `defer_accept`; nil leaves the default.
    var deferAccept: Bool? = nil
    /// `worker_affinity`, when set ("auto" or "none").
    var workerAffinity: String? = nil

    /// One upstream `o` at `port` and a catch-all route to it.
    static func single(port: Int, responseMs: Int = 5000) -> ProxyConfig {
        var config = ProxyConfig()
        config.upstreams["o"] = Upstream(port: port, responseMs: responseMs)
        config.routes = [["name": "all", "upstream": "o"]]
        return config
    }

    var json: String {
        var listener: [String: Any] = ["address": "127.0.0.1:0"]
        if let deferAccept { listener["defer_accept"] = deferAccept }
        var root: [String: Any] = [
            "workers": workers,
            "listeners": [listener],
            "upstreams": upstreams.mapValues { upstream in
                var timeouts: [String: Any] = ["connect": upstream.connectMs, "response": upstream.responseMs]
                if let tunnelIdle = upstream.tunnelIdleMs { timeouts["tunnel_idle"] = tunnelIdle }
                var object: [String: Any] = [
                    "url": "http://127.0.0.1:\(upstream.port)",
                    "timeouts_ms": timeouts,
                ]
                if let hostHeader = upstream.hostHeader { object["host_header"] = hostHeader }
                if let idle = upstream.maxIdleConnections { object["max_idle_connections"] = idle }
                return object
            },
            "routes": routes,
            "timeouts_ms": ["client_header": clientHeaderMs, "client_idle": clientIdleMs, "drain": drainMs],
        ]
        if !limits.isEmpty { root["limits"] = limits }
        if let workerAffinity { root["worker_affinity"] = workerAffinity }
        let data = try! JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }
}
