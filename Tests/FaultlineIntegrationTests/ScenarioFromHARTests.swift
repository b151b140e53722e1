import Foundation
import Testing
import FaultlineTestSupport

/// `faultline scenario from-har` through the binary: a HAR the proxy captured of a scripted
/// outage becomes a scenario that check-config accepts and whose rules, put in front of the
/// real origin, give the same answers; a browser-style HAR with its options; files refused
/// cleanly (too big, too deep, wrong types, not a HAR).
@Suite(.timeLimit(.minutes(3)))
struct ScenarioFromHARTests {
    static var outageRoutes: [[String: Any]] { [
        ["name": "pay-down", "match": ["path": "/pay", "methods": ["POST"], "json": ["/currency": "EUR"]], "upstream": "demo",
         "faults": [["status": ["code": 503, "body": "{\"error\":\"payments down\"}", "content_type": "application/json",
                                "headers": ["Retry-After": "30"]]]]],
        ["name": "limited", "match": ["path": "/quota"], "upstream": "demo", "faults": [["status": ["code": 429, "body": "slow down"]]]],
        ["name": "gone", "match": ["path": "/flaky"], "upstream": "demo", "faults": [["reset": [String: Any]()]]],
        ["name": "all", "upstream": "demo"],
    ] }

    /// Polls `GET /har` until it holds `count` entries.
    static func har(_ stack: AdminStack, entries count: Int) async throws -> [String: Any] {
        let deadline = ContinuousClock.now + .seconds(20)
        var last: [String: Any] = [:]
        while ContinuousClock.now < deadline {
            let (status, json) = try await stack.admin("GET", "/har")
            last = json
            if status == 200, ((json["log"] as? [String: Any])?["entries"] as? [Any])?.count == count { return json }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestFailure("GET /har never held \(count) entries: \(last)")
    }

    static func status(_ url: String, _ extra: [String] = []) async throws -> (status: Int, body: String, exit: Int32) {
        let result = try await Curl.run(["-s", "-w", "\n%{http_code}"] + extra + [url])
        let text = result.text
        let newline = text.lastIndex(of: "\n") ?? text.startIndex
        let code = Int(text[newline...].trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        return (code, String(text[..<newline]), result.exitCode)
    }

    @Test func aHARFaultlineCapturedReproducesItsOutage() async throws {
        let stack = try await AdminStack.start(routes: Self.outageRoutes, extra: ["log": ["bodies": true]])
        defer { stack.stop() }
        let eur = ["-X", "POST", "-H", "content-type: application/json", "--data-binary", #"{"currency": "EUR", "amount": 5}"#]
        let usd = ["-X", "POST", "-H", "content-type: application/json", "--data-binary", #"{"currency": "USD", "amount": 5}"#]
        #expect(try await Self.status(stack.proxy.url("/json")).status == 200)
        #expect(try await Self.status(stack.proxy.url("/pay?region=eu"), eur).status == 503)
        #expect(try await Self.status(stack.proxy.url("/pay?region=us"), usd).status != 503)
        #expect(try await Self.status(stack.proxy.url("/quota")).status == 429)
        #expect(try await Self.status(stack.proxy.url("/flaky")).exit != 0)
        _ = try await Self.har(stack, entries: 5)

        let harFile = stack.directory.path("capture.har")
        let (exported, exportOutput) = try await FaultlineProcess.command(["har", "export", "--admin", stack.adminURL, "--output", harFile])
        #expect(exported == 0, "\(exportOutput)")
        let scenarioFile = stack.directory.path("outage.json")
        let (converted, convertOutput) = try await FaultlineProcess.command(["scenario", "from-har", harFile, "--max-gap-ms", "100", "-o", scenarioFile])
        #expect(converted == 0, "\(convertOutput)")
        let (checked, checkOutput) = try await FaultlineProcess.command(["check-config", scenarioFile])
        #expect(checked == 0 && checkOutput.contains("OK (scenario har-capture"), "\(checkOutput)")

        // The generated rules, in front of a proxy without the outage's routes, answer as the outage did.
        let scenario = try JSONObject.parse(Array(try Data(contentsOf: URL(fileURLWithPath: scenarioFile))))
        let rules = (scenario["phases"] as? [[String: Any]] ?? []).flatMap { $0["rules"] as? [[String: Any]] ?? [] }
        #expect(rules.count == 3, "\(scenario)")
        let payRule = rules.first { ($0["match"] as? [String: Any])?["path"] as? String == "/pay" }
        // The capture keeps no body of a request a fault answered on its own, so the query
        // tells the failing payment from the one that went through.
        #expect((payRule?["match"] as? [String: Any])?["query"] as? [String: String] == ["region": "eu"], "\(String(describing: payRule))")
        let replay = try await AdminStack.start(routes: [["name": "all", "upstream": "demo"]])
        defer { replay.stop() }
        for rule in rules.reversed() {
            var body = rule
            body["upstream"] = "demo"
            body["position"] = "start"
            let text = String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self)
            let (status, json) = try await replay.admin("POST", "/rules", body: text)
            #expect(status == 201, "\(json)")
        }
        let pay = try await Self.status(replay.proxy.url("/pay?region=eu"), eur)
        #expect(pay.status == 503 && pay.body == #"{"error":"payments down"}"#, "\(pay)")
        #expect(try await Self.status(replay.proxy.url("/pay?region=us"), usd).status != 503)
        let quota = try await Self.status(replay.proxy.url("/quota"))
        #expect(quota.status == 429 && quota.body == "slow down", "\(quota)")
        #expect(try await Self.status(replay.proxy.url("/flaky")).exit != 0)
        #expect(try await Self.status(replay.proxy.url("/json")).status == 200)
        let headers = try await Curl.run(["-s", "-D", "-", "-o", "/dev/null"] + eur + [replay.proxy.url("/pay?region=eu")])
        #expect(headers.text.lowercased().contains("retry-after: 30"), "\(headers.text)")

        // The scenario itself loads into the running proxy.
        let (posted, postJSON) = try await replay.admin("POST", "/scenarios", body: String(decoding: try Data(contentsOf: URL(fileURLWithPath: scenarioFile)), as: UTF8.self))
        #expect(posted == 201, "\(postJSON)")
    }

    @Test func aBrowserHARAndTheOptions() async throws {
        let directory = try TemporaryDirectory()
        let har = try directory.write("browser.har", HARFixtures.browser)
        func convert(_ options: [String]) async throws -> [String: Any] {
            let out = directory.path("out-\(options.joined().count).json")
            let (exit, output) = try await FaultlineProcess.command(["scenario", "from-har", har, "-o", out] + options)
            guard exit == 0 else { throw TestFailure("from-har \(options): \(exit) \(output)") }
            let (checked, checkOutput) = try await FaultlineProcess.command(["check-config", out])
            #expect(checked == 0, "\(checkOutput)")
            return try JSONObject.parse(Array(try Data(contentsOf: URL(fileURLWithPath: out))))
        }
        func rules(_ scenario: [String: Any]) -> [[String: Any]] {
            (scenario["phases"] as? [[String: Any]] ?? []).flatMap { $0["rules"] as? [[String: Any]] ?? [] }
        }
        func faultKinds(_ scenario: [String: Any]) -> [String] {
            rules(scenario).flatMap { ($0["faults"] as? [[String: Any]] ?? []).flatMap(\.keys) }.sorted()
        }
        let all = try await convert([])
        #expect(faultKinds(all) == ["delay", "hang", "reset", "status", "status", "status"], "\(all)")
        let failures = try await convert(["--only-failures"])
        #expect(faultKinds(failures) == ["hang", "reset", "status", "status", "status"], "\(failures)")
        let cdn = try await convert(["--host", "cdn.*", "--name", "cdn-only"])
        #expect(faultKinds(cdn) == ["reset"] && cdn["name"] as? String == "cdn-only", "\(cdn)")
        let compressed = try await convert(["--compress", "10"])
        let durations = { (scenario: [String: Any]) in (scenario["phases"] as? [[String: Any]] ?? []).compactMap { $0["for_ms"] as? Int } }
        #expect(durations(compressed) == durations(all).map { max(1, Int((Double($0) / 10).rounded())) }, "\(durations(all)) \(durations(compressed))")
        let capped = try await convert(["--max-gap-ms", "50"])
        let quiet = (capped["phases"] as? [[String: Any]] ?? []).filter { $0["name"] as? String == "quiet" }
        #expect(!quiet.isEmpty && quiet.allSatisfy { ($0["for_ms"] as? Int ?? 0) <= 50 }, "\(capped)")
        let (both, bothOutput) = try await FaultlineProcess.command(["scenario", "from-har", har, "--compress", "2", "--max-gap-ms", "5"])
        #expect(both == 2, "\(bothOutput)")
    }

    @Test func hostileFilesAreRefusedWithTheirReason() async throws {
        let directory = try TemporaryDirectory()
        let cases: [(String, Data, String)] = [
            ("deep.har", Data(String(repeating: "[", count: 200_000).utf8), "nested deeper than 64"),
            ("types.har", Data(#"{"log": {"entries": [{"request": {"method": "GET", "url": "http://a/"}, "response": {"status": "503"}}]}}"#.utf8),
             "log.entries[0].response.status: expected a number"),
            ("missing.har", Data(#"{"log": {"entries": [{"request": {"url": "http://a/"}}]}}"#.utf8), "log.entries[0].request.method: missing"),
            ("text.har", Data("not json".utf8), "not JSON"),
            ("healthy.har", Data(#"{"log": {"entries": [{"request": {"method": "GET", "url": "http://a/"}, "response": {"status": 200}, "time": 3}]}}"#.utf8),
             "no failing or slow entry"),
        ]
        for (name, data, reason) in cases {
            let path = try directory.write(name, data)
            let (exit, output) = try await FaultlineProcess.command(["scenario", "from-har", path])
            #expect(exit == 1 && output.contains(reason), "\(name): \(exit) \(output)")
        }
        // Over 64 MiB: refused from its size, before it is read.
        let huge = directory.path("huge.har")
        #expect(FileManager.default.createFile(atPath: huge, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: huge))
        try handle.truncate(atOffset: 64 * 1024 * 1024 + 1)
        try handle.close()
        let (exit, output) = try await FaultlineProcess.command(["scenario", "from-har", huge])
        #expect(exit == 1 && output.contains("the most read is 67108864"), "\(exit) \(output)")
    }
}
