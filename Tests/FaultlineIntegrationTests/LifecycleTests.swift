import Foundation
import Testing
import FaultlineTestSupport

/// Reloading and stopping a proxy that is serving traffic.
@Suite(.timeLimit(.minutes(2)))
struct LifecycleTests {
    /// `/64` always routed; `/json` routed only once `extraRoute` is given.
    static func config(port: Int, extraRoute: String?) -> ProxyConfig {
        var config = ProxyConfig.single(port: port)
        config.routes = [["name": "sixty-four", "match": ["path": "/64"], "upstream": "o"]]
        if let extraRoute { config.routes.append(["name": extraRoute, "match": ["path": "/json"], "upstream": "o"]) }
        return config
    }

    @Test func reloadUnderTrafficFailsNoRequest() async throws {
        let stack = try await ProxyStack.demo { Self.config(port: $0, extraRoute: nil) }
        defer { stack.stop() }
        let client = HTTPClient()
        #expect(try await client.send(stack.url("/json")).status == 404)

        let traffic = TrafficCounter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    while !traffic.isStopped {
                        do {
                            let response = try await client.send(stack.url("/64?w=\(worker)"), timeout: 5)
                            if response.status == 200 && response.text.contains("sixty-four bytes") {
                                traffic.success()
                            } else {
                                traffic.failure("status \(response.status): \(response.text)")
                            }
                        } catch {
                            traffic.failure("\(error)")
                        }
                    }
                }
            }
            defer { traffic.stop() }
            try await Deadline.poll("traffic to flow", timeout: .seconds(30)) { traffic.successes >= 20 ? () : nil }
            for generation in 1...5 {
                let before = traffic.successes
                try stack.rewriteConfig(Self.config(port: stack.origin.port, extraRoute: "json-\(generation)").json)
                let seen = stack.proxy.output.lines.count
                stack.proxy.signal(SIGHUP)
                try await stack.proxy.output.waitForLine(containing: "configuration reloaded", after: seen)
                try await Deadline.poll("traffic after reload \(generation)", timeout: .seconds(10)) {
                    traffic.successes >= before + 10 ? () : nil
                }
            }
            traffic.stop()
            try await group.waitForAll()
        }
        #expect(traffic.failures.isEmpty, "\(traffic.failures.count) failed of \(traffic.successes + traffic.failures.count): \(traffic.failures.prefix(5))")
        #expect(traffic.successes > 50)
        let json = try await client.send(stack.url("/json"))
        #expect(json.status == 200, "the route added by reload must work")
    }

    @Test func badReloadIsRefusedAndTheOldConfigKeepsServing() async throws {
        let stack = try await ProxyStack.demo { Self.config(port: $0, extraRoute: "json") }
        defer { stack.stop() }
        for (index, bad) in ["{ \"listeners\": ", Self.config(port: stack.origin.port, extraRoute: "json").json
            .replacingOccurrences(of: "\"upstream\" : \"o\"", with: "\"upstream\" : \"missing\"")].enumerated() {
            try stack.rewriteConfig(bad)
            let seen = stack.proxy.output.lines.count
            stack.proxy.signal(SIGHUP)
            try await stack.proxy.output.waitForLine(containing: "reload refused", after: seen)
            if index == 1 {
                try await stack.proxy.output.waitForLine(containing: "unknown upstream \"missing\"", after: seen)
            }
            #expect(stack.proxy.child.isRunning)
            let client = HTTPClient()
            #expect(try await client.send(stack.url("/64")).status == 200)
            #expect(try await client.send(stack.url("/json")).status == 200)
        }
    }

    @Test func aRefusedReloadDoesNotEchoASecretFromTheFile() async throws {
        let stack = try await ProxyStack.demo { Self.config(port: $0, extraRoute: nil) }
        defer { stack.stop() }
        let secret = "CANARY-reload-\(UInt32.random(in: 1...UInt32.max))"
        // A wrong value is quoted back in the error, and this one carries a token.
        let good = Self.config(port: stack.origin.port, extraRoute: nil).json
        let bad = "{\"seed\": \"token=\(secret)\", " + good.drop { $0 != "{" }.dropFirst()
        #expect(bad.contains(secret))
        try stack.rewriteConfig(bad)
        let seen = stack.proxy.output.lines.count
        stack.proxy.signal(SIGHUP)
        let line = try await stack.proxy.output.waitForLine(containing: "seed:", after: seen)
        #expect(line.text.contains("[REDACTED]"), "\(line.text)")
        #expect(!stack.proxy.output.text.contains(secret), "the secret reached stderr:\n\(stack.proxy.output.text)")
        #expect(try await HTTPClient().send(stack.url("/64")).status == 200)
    }

    @Test func reloadLetsInFlightExchangesFinishOnTheOldConfig() async throws {
        let stack = try await ProxyStack.scripted()
        defer { stack.stop() }
        async let inFlight = Curl.run(["-w", "\n%{http_code}", stack.url("/slow?ms=1000")])
        try await stack.origin.output.waitForLine(containing: "request GET /slow")
        var config = ProxyConfig.single(port: stack.origin.port)
        config.routes = [["name": "headers-only", "match": ["path": "/headers"], "upstream": "o"]]
        try stack.rewriteConfig(config.json)
        let seen = stack.proxy.output.lines.count
        stack.proxy.signal(SIGHUP)
        try await stack.proxy.output.waitForLine(containing: "configuration reloaded", after: seen)
        let after = try await Curl.run(["-o", "/dev/null", "-w", "%{http_code}", stack.url("/slow?ms=10")])
        #expect(after.text == "404", "the new config has no route for /slow")
        let result = try await inFlight
        #expect(result.text == "slow done\n200", "\(result.text) \(result.stderr)")
    }

    @Test func sigtermDrainsInFlightRequestsAndExitsZero() async throws {
        let stack = try await ProxyStack.scripted()
        defer { stack.stop() }
        // An idle keep-alive connection must not hold the drain up.
        let idle = try RawClient(port: stack.port)
        defer { idle.close() }
        let warm = try await Blocking.run {
            try idle.send("GET /headers HTTP/1.1\r\nHost: a\r\n\r\n")
            return idle.readResponses(1)
        }
        #expect(warm.responses.first?.status == 200)
        async let inFlight = Curl.run(["-w", "\n%{http_code}", stack.url("/slow?ms=1000")])
        try await stack.origin.output.waitForLine(containing: "request GET /slow")
        stack.proxy.signal(SIGTERM)
        try await stack.proxy.output.waitForLine(containing: "draining")
        // Once draining, new connections are not served.
        let late = try await Curl.run(["-w", "%{http_code}", stack.url("/headers")], maxTime: 3)
        #expect(late.exitCode != 0 || late.text != "200", "a new connection was served while draining")
        let result = try await inFlight
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.text == "slow done\n200")
        let status = try await stack.proxy.child.waitForExit(timeout: .seconds(10))
        #expect(status == 0, "\(stack.proxy.output.text)")
        // The idle connection did not hold the drain up until its 5 s limit.
        #expect(stack.proxy.output.text.contains("drained, exiting"), "\(stack.proxy.output.text)")
    }
}
