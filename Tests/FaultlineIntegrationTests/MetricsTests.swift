import Foundation
import Testing
import FaultlineTestSupport

/// `GET /metrics` through the real binary: known traffic (200s, a status fault, a 404, a
/// refused upstream, pinned and untrusted TLS upstreams, an HTTP/2 request), then the
/// answer read by Python's `prometheus_client` parser and its values checked exactly.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct MetricsTests {
    private static func route(_ name: String, _ upstream: String, faults: [[String: Any]] = []) -> [String: Any] {
        var route: [String: Any] = ["name": name, "match": ["path_prefix": "/\(name)"], "upstream": upstream]
        if !faults.isEmpty { route["faults"] = faults }
        return route
    }

    private struct Stack {
        let proxy: TLSProxy
        let adminPort: Int
        /// Held so the origins live as long as the proxy.
        let tlsOrigin: TLSOriginProcess
        let demo: OriginProcess
    }

    /// Two loops (so shards add up), an h2c listener, and one upstream per outcome.
    private static func start() async throws -> Stack {
        let chain = try await TLSChainFactory.make()
        let tlsOrigin = try await TLSOriginProcess.python(chain: chain.path("chain.pem"), key: chain.path("leaf.key"))
        let demo = try await OriginProcess.demo()
        let pins: [String: Any] = ["sha256": [chain.pin("leaf"), chain.pin("backup")], "mode": "enforce",
                                   "candidate": ["sha256/" + chain.pin("rotated"), "sha256/" + chain.pin("backup")]]
        let wrongPins: [String: Any] = ["sha256": [chain.pin("rotated"), chain.pin("backup")], "mode": "enforce"]
        let upstreams: [String: [String: Any]] = [
            "demo": LoggingConfig.httpUpstream(port: demo.port),
            "dead": LoggingConfig.httpUpstream(port: try FreePort.closed()),
            "pinned": TLSProxyConfig.upstream(port: tlsOrigin.port, caFile: chain.path("root.pem"), pins: pins),
            "wrongpin": TLSProxyConfig.upstream(port: tlsOrigin.port, caFile: chain.path("root.pem"), pins: wrongPins),
            "untrusted": TLSProxyConfig.upstream(port: tlsOrigin.port, caFile: chain.path("untrusted-root.pem")),
        ]
        let routes = [
            route("users", "demo", faults: [["status": ["code": 503], "when": ["first_n": 3]]]),
            route("dead", "dead"), route("pinned", "pinned"), route("wrongpin", "wrongpin"), route("untrusted", "untrusted"),
        ]
        let proxy = try await TLSProxy.start(TLSProxyConfig.root(
            listeners: [["address": "127.0.0.1:0", "h2c": true]], upstreams: upstreams, routes: routes, workers: 2))
        return Stack(proxy: proxy, adminPort: try proxy.requireAdminPort(), tlsOrigin: tlsOrigin, demo: demo)
    }

    @Test func knownTrafficGivesExactCountsThatTheParserAccepts() async throws {
        let stack = try await Self.start()
        let proxy = stack.proxy
        var statuses: [Int] = []
        for _ in 0..<5 { statuses.append(try await TLSCurl.get(proxy.url("/users/1")).status) }
        #expect(statuses == [503, 503, 503, 200, 200])
        let h2 = try await TLSCurl.get(proxy.url("/users/2"), ["--http2-prior-knowledge"])
        #expect(h2.status == 200, "\(h2)")
        #expect(try await TLSCurl.get(proxy.url("/nowhere")).status == 404)
        #expect(try await TLSCurl.get(proxy.url("/dead/x")).status == 502)
        #expect(try await TLSCurl.get(proxy.url("/pinned/x")).status == 200)
        #expect(try await TLSCurl.get(proxy.url("/wrongpin/x")).status == 502)
        #expect(try await TLSCurl.get(proxy.url("/untrusted/x")).status == 502)

        // The pool sizes are published by each loop's 100 ms sweep.
        let metrics = try await MetricsScrape.read(adminPort: stack.adminPort, until: "the demo upstream's idle connection") {
            ($0.value("faultline_upstream_pool_idle_connections", ["upstream": "demo"]) ?? 0) >= 1
        }
        #expect(metrics.contentType == "text/plain; version=0.0.4; charset=utf-8")
        let requests = "faultline_requests_total"
        #expect(metrics.value(requests, ["route": "users", "status": "503"]) == 3)
        #expect(metrics.value(requests, ["route": "users", "status": "200"]) == 3)
        #expect(metrics.value(requests, ["route": "", "status": "404"]) == 1)
        #expect(metrics.value(requests, ["route": "dead", "status": "502"]) == 1)
        #expect(metrics.value(requests, ["route": "pinned", "status": "200"]) == 1)
        #expect(metrics.value(requests, ["route": "wrongpin", "status": "502"]) == 1)
        #expect(metrics.value(requests, ["route": "untrusted", "status": "502"]) == 1)
        #expect(metrics.all(requests).count == 7, "\(metrics.all(requests))")
        #expect(metrics.value("faultline_requests_untracked_total") == 0)

        let duration = "faultline_request_duration_seconds"
        #expect(metrics.families[duration] == "histogram")
        #expect(metrics.value(duration + "_count", ["route": "users"]) == 6)
        #expect(metrics.value(duration + "_bucket", ["route": "users", "le": "+Inf"]) == 6)
        #expect((metrics.value(duration + "_sum", ["route": "users"]) ?? 0) > 0)
        #expect(metrics.value(duration + "_count", ["route": ""]) == 1)
        let les = metrics.all(duration + "_bucket").filter { $0.labels["route"] == "users" }.compactMap { $0.labels["le"] }
        #expect(les == ["0.001", "0.0025", "0.005", "0.01", "0.025", "0.05", "0.1", "0.25", "0.5", "1", "2.5", "5", "10", "+Inf"])

        #expect(metrics.value("faultline_faults_fired_total", ["scope": "global", "route": "users", "fault": "status"]) == 3)
        let pins = "faultline_pin_verdicts_total"
        #expect(metrics.value(pins, ["upstream": "pinned", "set": "live", "verdict": "match"]) == 1)
        #expect(metrics.value(pins, ["upstream": "pinned", "set": "candidate", "verdict": "mismatch"]) == 1)
        #expect(metrics.value(pins, ["upstream": "wrongpin", "set": "live", "verdict": "mismatch"]) == 1)
        #expect(metrics.all(pins).count == 3, "\(metrics.all(pins))")
        #expect(metrics.value("faultline_upstream_connect_errors_total", ["upstream": "dead"]) == 1)
        #expect(metrics.value("faultline_upstream_connect_errors_total", ["upstream": "demo"]) == 0)
        #expect(metrics.value("faultline_upstream_tls_errors_total", ["upstream": "untrusted"]) == 1)
        #expect(metrics.value("faultline_upstream_tls_errors_total", ["upstream": "wrongpin"]) == 0)
        #expect((metrics.value("faultline_upstream_pool_idle_connections", ["upstream": "demo"]) ?? 0) <= 2)
        #expect(metrics.value("faultline_upstream_pool_idle_connections", ["upstream": "dead"]) == 0)
        #expect(metrics.value("faultline_http2_connections_accepted_total") == 1)
        #expect(metrics.value("faultline_http2_streams_opened_total") == 1)
        #expect(metrics.value("faultline_sessions_active") == 0)
        #expect(metrics.value("faultline_config_generation") == 1)
        #expect(metrics.all("faultline_build_info").first?.labels["version"]?.isEmpty == false)
        #expect(metrics.families["faultline_active_connections"] == "gauge")
    }

    @Test func connectionsAreAGaugeAndCountsFollowRouteNamesAcrossRuleChanges() async throws {
        let stack = try await Self.start()
        let proxy = stack.proxy
        #expect(try await TLSCurl.get(proxy.url("/users/1")).status == 503)
        #expect(try await TLSCurl.get(proxy.url("/dead/1")).status == 502)
        let client = try RawClient(port: proxy.port)
        defer { client.close() }
        let open = try await MetricsScrape.read(adminPort: stack.adminPort, until: "one active connection") {
            $0.value("faultline_active_connections") == 1
        }
        #expect(open.value("faultline_active_connections") == 1)

        // A rule added in front renumbers every route: counts stay with their names.
        let rule = #"{"name": "extra", "match": {"path_prefix": "/extra"}, "upstream": "demo", "position": "start"}"#
        let added = try await Curl.run(["-X", "POST", "-H", "Content-Type: application/json", "--data", rule,
                                        "http://127.0.0.1:\(stack.adminPort)/rules"])
        #expect(added.exitCode == 0 && added.text.contains("extra"), "\(added.text)")
        #expect(try await TLSCurl.get(proxy.url("/users/1")).status == 503)
        #expect(try await TLSCurl.get(proxy.url("/extra")).status == 404)
        let after = try await MetricsScrape.read(adminPort: stack.adminPort)
        #expect(after.value("faultline_config_generation") == 2)
        #expect(after.value("faultline_requests_total", ["route": "users", "status": "503"]) == 2)
        #expect(after.value("faultline_requests_total", ["route": "dead", "status": "502"]) == 1)
        #expect(after.value("faultline_requests_total", ["route": "extra", "status": "404"]) == 1)
        #expect(after.value("faultline_request_duration_seconds_count", ["route": "users"]) == 2)
        #expect(after.value("faultline_upstream_connect_errors_total", ["upstream": "dead"]) == 1)
        #expect(after.value("faultline_faults_fired_total", ["scope": "global", "route": "users", "fault": "status"]) == 2)
    }

    /// Each worker accepts on its own socket and the kernel hashes connections to them however
    /// busy they are; a worker holding sixteen or more hands a connection it accepted to the
    /// other when that one holds at least two fewer. Two hundred connections opened one after
    /// another (each answered before the next) end up at most two apart; the kernel's hash alone
    /// kept them that close in about a quarter of runs (a binomial split of 200).
    @Test func workersShareConnectionsEvenly() async throws {
        let (first, second, all) = try await Self.workerConnections(afterOpening: 200)
        #expect(first + second == 200, "\(all)")
        #expect(abs(first - second) <= 2, "workers hold \(first) and \(second) connections")
    }

    /// Below sixteen connections a worker hands a new one over whenever the other holds fewer:
    /// ten connections (h2load's ten HTTP/2 connections, each a tenth of the load) end up five
    /// and five, wherever the kernel's hash put them.
    @Test func workersShareAFewConnectionsExactly() async throws {
        let (first, second, all) = try await Self.workerConnections(afterOpening: 10)
        #expect(first == 5 && second == 5, "\(all)")
    }

    /// Opens `count` connections to a fresh two-worker proxy, one after another, each answered
    /// before the next; returns how many each worker holds once all are open (-1 when missing)
    /// and the gauge's lines for a failure message.
    private static func workerConnections(afterOpening count: Int) async throws -> (Double, Double, String) {
        let stack = try await start()
        var clients: [RawClient] = []
        defer { clients.forEach { $0.close() } }
        for index in 0..<count {
            let client = try RawClient(port: stack.proxy.port)
            clients.append(client)
            try client.send("GET /users/\(index) HTTP/1.1\r\nHost: metrics.test\r\n\r\n")
            let answer = client.readResponses(1)
            try #require(answer.responses.count == 1 && !answer.closed, "connection \(index)")
        }
        let metrics = try await MetricsScrape.read(adminPort: stack.adminPort, until: "\(count) active connections") {
            $0.value("faultline_active_connections") == Double(count)
        }
        return (metrics.value("faultline_worker_connections", ["worker": "0"]) ?? -1,
                metrics.value("faultline_worker_connections", ["worker": "1"]) ?? -1,
                "\(metrics.all("faultline_worker_connections"))")
    }
}
