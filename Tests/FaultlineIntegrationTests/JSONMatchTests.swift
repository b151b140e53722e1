import Foundation
import Testing
import FaultlineTestSupport

/// Routes matching on a JSON request body (`match.json`) through the binary, over HTTP/1.1
/// and HTTP/2 (h2c prior knowledge): a field deep in the body, escaped pointer tokens, a
/// number, `not`, a body over `limits.max_match_body_bytes` (1 KiB here) and one that is not
/// JSON (neither matches, neither is refused), declared lengths and chunked / unsized uploads,
/// and the body reaching the origin byte for byte whether it was held or not.
@Suite(.timeLimit(.minutes(3)))
struct JSONMatchTests {
    static let limit = 1024

    static var rules: [[String: Any]] { [
        rule("deep", ["path": "/j", "json": ["/order/items/2/sku": "A*", "/user/tier": "gold"]], 521),
        rule("escaped", ["path": "/e", "json": ["/a~1b/c~0d": true]], 522),
        rule("number", ["path": "/n", "json": ["/count": "42"]], 523),
        rule("not-debug", ["path": "/x", "not": ["json": ["/debug": true]]], 524),
    ] }

    static func rule(_ name: String, _ match: [String: Any], _ status: Int) -> [String: Any] {
        ["name": name, "match": match, "upstream": "demo", "faults": [["status": ["code": status]]]]
    }

    static var extra: [String: Any] {
        ["listeners": [["address": "127.0.0.1:0", "h2c": true]], "limits": ["max_match_body_bytes": limit]]
    }

    static let deepBody = #"{"user": {"tier": "gold", "id": 7}, "order": {"items": [{"sku": "Z1"}, {"sku": "B2"}, {"sku": "A-77"}]}}"#

    /// A request body and the status it must get (0: the origin's, not a rule's).
    struct Probe: Sendable {
        let what: String
        let path: String
        let body: String
        let status: Int
    }

    static var probes: [Probe] { [
        Probe(what: "deep field", path: "/j", body: deepBody, status: 521),
        Probe(what: "deep field differs", path: "/j", body: deepBody.replacingOccurrences(of: "gold", with: "silver"), status: 0),
        Probe(what: "index out of range", path: "/j", body: #"{"user": {"tier": "gold"}, "order": {"items": [{"sku": "A1"}]}}"#, status: 0),
        Probe(what: "over the limit", path: "/j",
              body: deepBody.replacingOccurrences(of: "\"id\": 7", with: "\"pad\": \"\(String(repeating: "p", count: limit))\""), status: 0),
        Probe(what: "not JSON", path: "/j", body: "user.tier=gold&sku=A-1", status: 0),
        Probe(what: "truncated JSON", path: "/j", body: String(deepBody.dropLast()), status: 0),
        Probe(what: "nested 500 deep", path: "/x", body: String(repeating: "[", count: 500) + String(repeating: "]", count: 500), status: 524),
        Probe(what: "nested past the parser's depth", path: "/x", body: String(repeating: "[", count: 1000), status: 524),
        Probe(what: "escaped tokens", path: "/e", body: #"{"a/b": {"c~d": null}}"#, status: 522),
        Probe(what: "unescaped token misses", path: "/e", body: #"{"a": {"b": {"c~d": 1}}}"#, status: 0),
        Probe(what: "number", path: "/n", body: #"{"count": 42.0}"#, status: 523),
        Probe(what: "number differs", path: "/n", body: #"{"count": 421}"#, status: 0),
        Probe(what: "not holds", path: "/x", body: #"{"debug2": true}"#, status: 524),
        Probe(what: "not holds on a non-JSON body", path: "/x", body: "debug", status: 524),
        Probe(what: "not fails", path: "/x", body: #"{"debug": false}"#, status: 0),
    ] }

    /// Every probe over HTTP/1.1 and h2c, with a declared length and streamed (chunked on
    /// HTTP/1.1, no content-length on HTTP/2: curl reads the body from stdin).
    static func check(_ url: (String) -> String, directory: TemporaryDirectory) async throws {
        let ruleStatuses = Set([521, 522, 523, 524])
        for (index, probe) in probes.enumerated() {
            let file = try directory.write("probe-\(index).json", probe.body)
            for http2 in [false, true] {
                for streamed in [false, true] {
                    let version = http2 ? "--http2-prior-knowledge" : "--http1.1"
                    var arguments = [version, "-s", "-o", "/dev/null", "-w", "%{http_code} %{http_version}", "-X", "POST",
                                     "-H", "content-type: application/json"]
                    arguments += streamed ? ["-H", "Transfer-Encoding: chunked", "--data-binary", "@\(file)"] : ["--data-binary", "@\(file)"]
                    if streamed && http2 { arguments += ["-H", "Transfer-Encoding:"] }
                    let result = try await Curl.run(arguments + [url(probe.path)])
                    let parts = result.text.split(separator: " ")
                    let status = parts.first.flatMap { Int($0) } ?? -1
                    let label = "\(probe.what) over \(http2 ? "HTTP/2" : "HTTP/1.1")\(streamed ? " streamed" : ""): \(result.text) \(result.stderr)"
                    #expect(parts.last == (http2 ? "2" : "1.1"), "\(label)")
                    if probe.status == 0 {
                        #expect(status > 0 && !ruleStatuses.contains(status), "\(label)")
                    } else {
                        #expect(status == probe.status, "\(label)")
                    }
                }
            }
        }
    }

    @Test func configFileRulesMatchOnAJSONBody() async throws {
        let stack = try await AdminStack.start(routes: Self.rules + [["name": "all", "upstream": "demo"]], extra: Self.extra)
        defer { stack.stop() }
        try await Self.check({ stack.proxy.url($0) }, directory: stack.directory)
    }

    @Test func adminAPIRulesMatchTheSameAndListTheirConditions() async throws {
        let stack = try await AdminStack.start(routes: [["name": "all", "upstream": "demo"]], extra: Self.extra)
        defer { stack.stop() }
        for rule in Self.rules.reversed() {
            var body = rule
            body["position"] = "start"
            let text = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
            let (status, json) = try await stack.admin("POST", "/rules", body: text)
            #expect(status == 201, "\(rule["name"] ?? ""): \(status) \(json)")
        }
        try await Self.check({ stack.proxy.url($0) }, directory: stack.directory)
        let listed = try await stack.rules()
        let deep = listed.first { $0["name"] as? String == "deep" }?["match"] as? [String: Any]
        #expect(deep?["json"] as? [String: String] == ["/order/items/2/sku": "A*", "/user/tier": "gold"], "\(listed)")
        let negated = listed.first { $0["name"] as? String == "not-debug" }?["match"] as? [String: Any]
        #expect((negated?["not"] as? [String: Any])?["json"] as? [String: Bool] == ["/debug": true], "\(listed)")
        let (exit, output) = try await FaultlineProcess.command(["rules", "list", "--admin", stack.adminURL])
        #expect(exit == 0, "\(output)")
        #expect(output.split(separator: "\n").contains { $0.hasPrefix("deep ") && $0.contains("/j +json") }, "\(output)")
    }

    /// A pointer that is not RFC 6901 is refused with its path.
    @Test func aBadPointerIsRefused() async throws {
        let stack = try await AdminStack.start(routes: [["name": "all", "upstream": "demo"]], extra: Self.extra)
        defer { stack.stop() }
        let (status, json) = try await stack.admin("POST", "/rules", body: #"{"name": "bad", "match": {"json": {"user~2": "x"}}, "upstream": "demo"}"#)
        #expect(status == 400, "\(json)")
        #expect("\(json)".contains("rule.match.json"), "\(json)")
    }

    /// Bodies held for matching (under the limit) and not (over it, declared or found while
    /// streaming) reach the origin unchanged: `/echo?raw=1` sends them back.
    @Test func theBodyReachesTheOriginByteForByte() async throws {
        let stack = try await AdminStack.start(routes: Self.rules + [["name": "all", "upstream": "demo"]], extra: Self.extra)
        defer { stack.stop() }
        var generator = SplitMix64(seed: 24)
        for size in [1, 700, Self.limit, Self.limit + 1, 5000, 200_000] {
            var bytes = [UInt8](repeating: 0, count: size)
            for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: generator.next()) }
            let sent = try stack.directory.write("body-\(size).bin", Data(bytes))
            for http2 in [false, true] {
                for streamed in [false, true] {
                    let received = stack.directory.path("received-\(size)-\(http2)-\(streamed).bin")
                    var arguments = [http2 ? "--http2-prior-knowledge" : "--http1.1", "-s", "-o", received, "-w", "%{http_code}",
                                     "-X", "POST", "--data-binary", "@\(sent)"]
                    if streamed { arguments += ["-H", "Transfer-Encoding: chunked"] }
                    if streamed && http2 { arguments += ["-H", "Transfer-Encoding:"] }
                    let result = try await Curl.run(arguments + [stack.proxy.url("/echo?raw=1")], maxTime: 30)
                    let label = "\(size) bytes over \(http2 ? "HTTP/2" : "HTTP/1.1")\(streamed ? " streamed" : ""): \(result.text) \(result.stderr)"
                    #expect(result.text == "200", "\(label)")
                    let echoed = (try? Data(contentsOf: URL(fileURLWithPath: received))).map { [UInt8]($0) } ?? []
                    #expect(echoed.count == bytes.count && echoed == bytes, "\(label): echoed \(echoed.count) bytes")
                }
            }
        }
    }

    /// A session's json rule: its journal names the rule that matched.
    @Test func sessionRulesMatchOnJSONAndTheJournalNamesTheRule() async throws {
        let stack = try await AdminStack.start(routes: [["name": "all", "upstream": "demo"]], extra: Self.extra)
        defer { stack.stop() }
        let (created, session) = try await stack.admin("POST", "/sessions", body: "{}")
        guard created == 201, let id = session["id"] as? String else { throw TestFailure("POST /sessions: \(created) \(session)") }
        let rule = #"{"name": "gold-tier", "match": {"json": {"/user/tier": "gold"}}, "faults": [{"status": {"code": 529}}]}"#
        let (added, json) = try await stack.admin("POST", "/sessions/\(id)/rules", body: rule)
        #expect(added == 201, "\(json)")
        for (body, expected) in [(Self.deepBody, 529), (#"{"user": {"tier": "bronze"}}"#, 200)] {
            for version in ["--http1.1", "--http2-prior-knowledge"] {
                let result = try await Curl.run([version, "-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "x-faultline-session: \(id)",
                                                 "--data-binary", body, stack.proxy.url("/echo")])
                #expect(Int(result.text) == expected, "\(body) \(version): \(result.text) \(result.stderr)")
            }
        }
        let (status, journal) = try await stack.admin("GET", "/sessions/\(id)/requests")
        let entries = journal["requests"] as? [[String: Any]] ?? []
        #expect(status == 200 && entries.count == 4, "\(journal)")
        #expect(entries.filter { $0["route"] as? String == "gold-tier" }.count == 2, "\(entries)")
        #expect(entries.filter { $0["status"] as? Int == 529 }.count == 2, "\(entries)")
    }

    /// A client that waits for `100 Continue` before sending its body gets it from Faultline
    /// when the body is read before routing (the upstream has not been chosen yet), then the
    /// rule's answer; stalling afterwards would not be this test's concern.
    @Test func expectContinueIsAnsweredWhileTheBodyIsRead() async throws {
        let stack = try await AdminStack.start(routes: Self.rules + [["name": "all", "upstream": "demo"]], extra: Self.extra)
        defer { stack.stop() }
        let body = Self.deepBody
        let client = try RawClient(port: stack.proxy.port, readTimeout: .seconds(20))
        defer { client.close() }
        try client.send("POST /j HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nExpect: 100-continue\r\n"
                        + "Content-Length: \(body.utf8.count)\r\n\r\n")
        let interim = String(decoding: client.read(until: "\r\n\r\n", timeout: .seconds(20)), as: UTF8.self)
        #expect(interim.hasPrefix("HTTP/1.1 100 Continue\r\n"), "\(interim)")
        try client.send(body)
        let (responses, _) = client.readResponses(1, timeout: .seconds(20))
        #expect(responses.first?.status == 521, "\(responses)")
    }

    /// An HTTP/2 request read before routing (no content-length, so held until END_STREAM)
    /// keeps the trailers that came with its end: they reach an HTTP/2 origin, as do the body
    /// and the head.
    @Test func aHeldHTTP2RequestKeepsItsTrailers() async throws {
        let origin = try await H2Origin.start()
        defer { origin.kill() }
        let proxy = try await HTTP2EndToEndTests.proxy(origin: origin, routes: [
            ["name": "gold", "match": ["path": "/gold", "json": ["/tier": "gold"]], "upstream": "o", "faults": [["status": 530]]],
            ["name": "all", "upstream": "o"],
        ])
        defer { proxy.kill() }
        let report = try await HTTP2EndToEndTests.probe([
            "connect": H2Probe.target(port: proxy.port),
            "actions": [
                ["do": "request", "label": "echo", "method": "POST", "path": "/echo",
                 "extra": [["te", "trailers"]], "body": #"{"tier": "gold"}"#, "trailers": [["x-sum", "3"]]],
                ["do": "request", "label": "gold", "method": "POST", "path": "/gold",
                 "body": #"{"tier": "gold"}"#, "trailers": [["x-sum", "4"]]],
            ],
        ])
        #expect(report.connected && report.error == nil && report.h2Error == nil, "\(report)")
        let echo = try #require(report.stream(labelled: "echo"))
        let body = try JSONObject.parse(Array((echo.body ?? "").utf8))
        #expect(echo.status == 200 && (body["trailers"] as? [[String]]) == [["x-sum", "3"]], "\(body)")
        #expect(body["body_bytes"] as? Int == 16, "\(body)")
        #expect(report.stream(labelled: "gold")?.status == 530, "\(report)")
    }

    /// An HTTP/1 chunked upload read before routing keeps its trailer section: it reaches an
    /// HTTP/2 origin (which reports the trailers it got) with the body unchanged.
    @Test func aHeldChunkedHTTP1RequestKeepsItsTrailers() async throws {
        let origin = try await H2Origin.start()
        defer { origin.kill() }
        let proxy = try await HTTP2EndToEndTests.proxy(origin: origin, routes: [
            ["name": "gold", "match": ["path": "/gold", "json": ["/tier": "gold"]], "upstream": "o", "faults": [["status": 530]]],
            ["name": "all", "upstream": "o"],
        ])
        defer { proxy.kill() }
        let client = try RawClient(port: proxy.port, readTimeout: .seconds(20))
        defer { client.close() }
        try client.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTE: trailers\r\n\r\n"
                        + "9\r\n{\"tier\": \r\n7\r\n\"gold\"}\r\n0\r\nX-Sum: 3\r\n\r\n")
        let (responses, _) = client.readResponses(1, timeout: .seconds(20))
        let response = try #require(responses.first, "no response")
        let body = try JSONObject.parse(response.body)
        #expect(response.status == 200 && body["body_bytes"] as? Int == 16, "\(body)")
        #expect((body["trailers"] as? [[String]]) == [["x-sum", "3"]], "\(body)")
    }
}
