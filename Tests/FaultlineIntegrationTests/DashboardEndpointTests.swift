import Foundation
import Testing
import FaultlineTestSupport

/// The dashboard's endpoints over plain HTTP, through the real binary: which answers need
/// the token, the security fields, the live stream's content, and a stream client that
/// never reads.
@Suite("Dashboard endpoints", .timeLimit(.minutes(3)))
struct DashboardEndpointTests {
    static func curl(_ port: Int, _ path: String, _ extra: [String] = [], maxTime: Int = 10) async throws -> (status: Int, head: String, body: String) {
        let result = try await Curl.run(["-i"] + extra + ["http://127.0.0.1:\(port)\(path)"], maxTime: maxTime)
        let text = result.text
        let parts = text.components(separatedBy: "\r\n\r\n")
        let status = Int(parts.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        return (status, parts.first ?? "", parts.dropFirst().joined(separator: "\r\n\r\n"))
    }

    static func field(_ name: String, in head: String) -> String? {
        head.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix(name.lowercased() + ":") }
            .map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces) }
    }

    @Test func thePageLoadsWithoutTheTokenAndNothingElseDoes() async throws {
        let token = "endpoint-token"
        let stack = try await SessionStack.start(extra: ["admin": ["address": "127.0.0.1:0", "token": token]])
        defer { stack.stop() }
        let port = stack.adminPort
        let page = try await Self.curl(port, "/ui/")
        #expect(page.status == 200 && page.body.contains("<title>Faultline dashboard</title>"), "\(page.head)")
        let policy = Self.field("Content-Security-Policy", in: page.head) ?? ""
        #expect(policy.contains("script-src 'self'") && policy.contains("frame-ancestors 'none'") && !policy.contains("unsafe"), "\(policy)")
        #expect(Self.field("X-Frame-Options", in: page.head) == "DENY")
        #expect(Self.field("Referrer-Policy", in: page.head) == "no-referrer")
        #expect(Self.field("X-Content-Type-Options", in: page.head) == "nosniff")
        let script = try await Self.curl(port, "/ui/app.js")
        #expect(script.status == 200 && Self.field("Content-Type", in: script.head)?.hasPrefix("text/javascript") == true)
        #expect(try await Self.curl(port, "/").status == 302)
        #expect(try await Self.curl(port, "/ui/missing.js").status == 404)

        for path in ["/exchanges", "/exchanges/1", "/overview", "/exchanges/stream", "/health"] {
            let refused = try await Self.curl(port, path)
            #expect(refused.status == 401, "\(path): \(refused.head)")
            #expect(Self.field("X-Frame-Options", in: refused.head) == "DENY", "\(path)")
        }
        let allowed = try await Self.curl(port, "/overview", ["-H", "Authorization: Bearer \(token)"])
        #expect(allowed.status == 200 && allowed.body.contains("\"last_minute\""), "\(allowed.head)")
        #expect(Self.field("Content-Security-Policy", in: allowed.head) == "default-src 'none'; frame-ancestors 'none'")
        // Only reading the page is open: a change needs the token and JSON.
        #expect(try await Self.curl(port, "/ui/", ["-X", "POST", "-H", "Content-Type: application/json", "-d", "{}"]).status == 401)
        // DNS rebinding: the page itself is refused under a foreign name.
        #expect(try await Self.curl(port, "/ui/", ["-H", "Host: evil.example:\(port)"]).status == 421)
    }

    @Test func theStreamCarriesRedactedSummariesOfNewExchanges() async throws {
        let stack = try await SessionStack.start()
        defer { stack.stop() }
        let first = try await stack.request("/json?before=1")
        #expect(first.status == 200)
        let recent = try await Self.curl(stack.adminPort, "/exchanges")
        let object = try JSONObject.parse(Array(recent.body.utf8))
        let newest = try #require(object["newest"] as? Int)
        #expect((object["exchanges"] as? [[String: Any]])?.last?["path"] as? String == "/json")

        let client = try RawClient(port: stack.adminPort)
        defer { client.close() }
        try client.send("GET /exchanges/stream?after=\(newest) HTTP/1.1\r\nHost: 127.0.0.1:\(stack.adminPort)\r\n\r\n")
        let head = String(decoding: client.read(until: "faultline live exchanges", timeout: .seconds(10)), as: UTF8.self)
        #expect(head.hasPrefix("HTTP/1.1 200") && head.contains("text/event-stream"), "\(head)")
        let secret = "s3cr3t-stream"
        let second = try await stack.request("/users/7?token=\(secret)", headers: ["Authorization: Bearer \(secret)"])
        #expect(second.status == 200)
        let event = String(decoding: client.read(until: "\"path\":\"/users/7\"", timeout: .seconds(10)), as: UTF8.self)
        #expect(event.contains("event: exchanges") && event.contains("\"route\":\"users\""), "\(event)")
        #expect(!event.contains(secret) && event.contains("token=[REDACTED]"), "\(event)")
        // Only what came after the cursor: the earlier exchange is not sent again.
        #expect(!event.contains("before=1"), "\(event)")
    }

    @Test func theDetailNamesTheHTTP2StreamAndTheCodeThatEndedIt() async throws {
        let stack = try await SessionStack.start()
        defer { stack.stop() }
        let added = try await stack.admin("POST", "/rules", body: #"{"name": "refuse", "match": {"path": "/refused"}, "faults": [{"rst_stream": {}}]}"#)
        #expect(added.status == 201, "\(added.json)")
        _ = try? await stack.request("/refused", http2: true)
        let recent = try JSONObject.parse(Array(try await Self.curl(stack.adminPort, "/exchanges").body.utf8))
        let entry = try #require((recent["exchanges"] as? [[String: Any]])?.last { $0["path"] as? String == "/refused" }, "\(recent)")
        let seq = try #require(entry["seq"] as? Int)
        let detail = try JSONObject.parse(Array(try await Self.curl(stack.adminPort, "/exchanges/\(seq)").body.utf8))
        #expect(detail["protocol"] as? String == "2" && detail["h2_stream"] as? Int == 1, "\(detail)")
        let error = detail["h2_error"] as? [String: Any]
        #expect(error?["code"] as? String == "REFUSED_STREAM" && error?["frame"] as? String == "RST_STREAM"
                && error?["sender"] as? String == "faultline", "\(detail)")
        #expect(detail["detail"] is [String: Any], "\(detail)")
        #expect(try await Self.curl(stack.adminPort, "/exchanges/999999").status == 404)
    }

    @Test func anOpenStreamSeesExchangesWithTheLogHARAndJournalAllOff() async throws {
        let stack = try await SessionStack.start(extra: ["log": ["off": true], "har": ["enabled": false], "journal": ["capacity": 0]])
        defer { stack.stop() }
        // Nothing records exchanges, so nothing is recent.
        #expect(try await stack.request("/json?unwatched=1").status == 200)
        let recent = try JSONObject.parse(Array(try await Self.curl(stack.adminPort, "/exchanges").body.utf8))
        #expect((recent["exchanges"] as? [Any])?.isEmpty == true, "\(recent)")
        // A dashboard watching: exchanges are recorded for it.
        let client = try RawClient(port: stack.adminPort)
        defer { client.close() }
        try client.send("GET /exchanges/stream HTTP/1.1\r\nHost: 127.0.0.1:\(stack.adminPort)\r\n\r\n")
        _ = client.read(until: "faultline live exchanges", timeout: .seconds(10))
        #expect(try await stack.request("/json?watched=1").status == 200)
        let event = String(decoding: client.read(until: "watched=1", timeout: .seconds(10)), as: UTF8.self)
        #expect(event.contains("\"path\":\"/json\"") && event.contains("watched=1"), "\(event)")
    }

    @Test func aStreamClientThatNeverReadsHoldsNeitherMemoryNorTheAdminAPI() async throws {
        let stack = try await SessionStack.start(extra: ["log": ["off": true]])
        defer { stack.stop() }
        let stalled = try RawClient(port: stack.adminPort)
        defer { stalled.close() }
        try stalled.send("GET /exchanges/stream HTTP/1.1\r\nHost: 127.0.0.1:\(stack.adminPort)\r\n\r\n")
        let before = try #require(ProcessMemory.residentKiB(stack.proxy.child.pid))
        // Enough traffic to fill the socket buffers many times over had every record been queued.
        let load = try await Blocking.run {
            try Command.run(["h2load", "--h1", "-n", "20000", "-c", "4", "http://127.0.0.1:\(stack.proxy.port)/json"], timeout: .seconds(120))
        }
        #expect(load.output.contains("20000 succeeded"), "\(load.output)")
        let after = try #require(ProcessMemory.residentKiB(stack.proxy.child.pid))
        print("stalled stream: proxy RSS \(before) kB before, \(after) kB after 20000 exchanges")
        #expect(after - before < 32 * 1024, "the proxy grew by \(after - before) kB")
        let health = try await Self.curl(stack.adminPort, "/health")
        #expect(health.status == 200)
    }
}
