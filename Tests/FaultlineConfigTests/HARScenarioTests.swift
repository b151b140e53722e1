import Foundation
import Testing
import FaultlineTestSupport
@testable import FaultlineConfig

/// The HAR reader and the scenario builder, without the binary: what each kind of entry
/// becomes, how requests to one path are told apart, phases and their limits, and what the
/// reader refuses.
@Suite("HAR to scenario")
struct HARScenarioTests {
    private func build(_ text: String, _ configure: (inout HARScenarioOptions) -> Void = { _ in }) throws -> (scenario: ScenarioConfig, json: [String: Any], notes: [String]) {
        var options = HARScenarioOptions(name: "t")
        configure(&options)
        let result = try HARScenarioBuilder.build(try HARInput.read(Array(text.utf8)), options: options)
        let scenario = try ScenarioConfig.load(json: result.json, upstreams: nil)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.json)) as? [String: Any])
        return (scenario, json, result.notes)
    }

    private func rules(_ json: [String: Any]) -> [[String: Any]] {
        (json["phases"] as? [[String: Any]] ?? []).flatMap { $0["rules"] as? [[String: Any]] ?? [] }
    }

    @Test func theBrowserHARBecomesALoadableScenario() throws {
        let (scenario, json, _) = try build(HARFixtures.browser)
        #expect(scenario.phases.last?.end == .never && scenario.phases.last?.rules.isEmpty == true)
        let all = rules(json)
        #expect(all.count == 6, "\(all)")
        let first = try #require(all.first)
        let status = try #require((first["faults"] as? [[String: Any]])?.first?["status"] as? [String: Any])
        #expect(status["code"] as? Int == 503)
        #expect(status["body"] as? String == #"{"error": "payments are down"}"#)
        #expect(status["content_type"] as? String == "application/json")
        // Redacted stays redacted; framing, hop-by-hop, coding and pseudo-headers are gone.
        #expect(status["headers"] as? [String: String] == ["retry-after": "30", "set-cookie": "[REDACTED]"])
        // The attempt that later succeeded (attempt=4) is told apart by its query.
        #expect((first["match"] as? [String: Any])?["query"] as? [String: String] == ["attempt": "1"])
        // Base64 bodies are decoded.
        let second = try #require((all[1]["faults"] as? [[String: Any]])?.first?["status"] as? [String: Any])
        #expect(second["body"] as? String == #"{"error": "payments are down"}"#)
        let kinds = all.map { ($0["faults"] as? [[String: Any]])?.first?.keys.first ?? "" }
        #expect(kinds == ["status", "status", "reset", "delay", "hang", "status"], "\(kinds)")
        // The timed-out GraphQL call is told apart from the one that passed by its body.
        let hang = try #require(all.first { ($0["faults"] as? [[String: Any]])?.first?["hang"] != nil })
        #expect((hang["match"] as? [String: Any])?["json"] as? [String: String] == ["/operationName": "PlaceOrder"])
        #expect(((hang["faults"] as? [[String: Any]])?.first?["hang"] as? [String: Any])?["ms"] as? Int == 30000)
    }

    @Test func repeatsThatLaterPassGetFirstN() throws {
        let har = #"""
        {"log": {"entries": [
          {"startedDateTime": "2026-01-01T00:00:00Z", "time": 10, "request": {"method": "GET", "url": "http://a/x"}, "response": {"status": 502}},
          {"startedDateTime": "2026-01-01T00:00:00.100Z", "time": 10, "request": {"method": "GET", "url": "http://a/x"}, "response": {"status": 502}},
          {"startedDateTime": "2026-01-01T00:00:00.200Z", "time": 10, "request": {"method": "GET", "url": "http://a/x"}, "response": {"status": 200}}
        ]}}
        """#
        let (_, json, _) = try build(har)
        let all = rules(json)
        #expect(all.count == 1)
        #expect(((all.first?["faults"] as? [[String: Any]])?.first?["when"] as? [String: Int]) == ["first_n": 2], "\(all)")
    }

    @Test func anOutcomeChangeOnOneRouteStartsAPhase() throws {
        let har = #"""
        {"log": {"entries": [
          {"startedDateTime": "2026-01-01T00:00:00Z", "time": 10, "request": {"method": "GET", "url": "http://a/x"}, "response": {"status": 503}},
          {"startedDateTime": "2026-01-01T00:00:00.300Z", "time": 10, "request": {"method": "GET", "url": "http://a/x"}, "response": {"status": 504}}
        ]}}
        """#
        let (scenario, _, _) = try build(har)
        #expect(scenario.phases.map(\.end) == [.elapsed(milliseconds: 300), .elapsed(milliseconds: 1000), .never])
    }

    @Test func optionsFilterAndScaleTime() throws {
        let failures = try build(HARFixtures.browser) { $0.onlyFailures = true }
        #expect(rules(failures.json).count == 5)
        let cdn = try build(HARFixtures.browser) { $0.hosts = ["CDN.example.*"] }
        #expect(rules(cdn.json).count == 1)
        let base = try build(HARFixtures.browser)
        let compressed = try build(HARFixtures.browser) { $0.compress = 4 }
        let durations = { (scenario: ScenarioConfig) in scenario.phases.compactMap { phase -> Int? in
            if case .elapsed(let ms) = phase.end { return ms } else { return nil }
        } }
        #expect(durations(compressed.scenario) == durations(base.scenario).map { max(1, Int((Double($0) / 4).rounded())) })
        let capped = try build(HARFixtures.browser) { $0.maxGapMs = 10 }
        let quiet = (capped.json["phases"] as? [[String: Any]] ?? []).filter { $0["name"] as? String == "quiet" }
        #expect(!quiet.isEmpty && quiet.allSatisfy { ($0["for_ms"] as? Int ?? 0) <= 10 })
        let cut = try build(HARFixtures.browser) { $0.maxBodyBytes = 5 }
        let body = ((rules(cut.json).first?["faults"] as? [[String: Any]])?.first?["status"] as? [String: Any])?["body"] as? String
        #expect(body == #"{"err"#)
        #expect(cut.notes.contains { $0.contains("was cut to 5 bytes") })
    }

    @Test func manyIncidentsStopAtThePhaseLimit() throws {
        var entries: [String] = []
        for index in 0..<300 {
            entries.append(#"{"startedDateTime": "2026-01-01T00:\#(String(format: "%02d", index * 2 / 60)):\#(String(format: "%02d", index * 2 % 60))Z", "time": 5, "request": {"method": "GET", "url": "http://a/p\#(index)"}, "response": {"status": 500}}"#)
        }
        let (scenario, _, notes) = try build(#"{"log": {"entries": [\#(entries.joined(separator: ","))]}}"#)
        #expect(scenario.phases.count <= ScenarioConfig.maxPhases)
        #expect(notes.contains { $0.contains("at most 100 phases") })
    }

    /// Found by the HARScenario fuzz target: a phase named after a long path was over the
    /// format's 200 bytes, so the scenario written was refused.
    @Test func namesStayWithinTheFormatsBounds() throws {
        let path = "/" + String(repeating: "n", count: 400)
        let har = #"{"log": {"entries": [{"time": 5, "request": {"method": "GET", "url": "http://a\#(path)"}, "response": {"status": 502}}]}}"#
        let (scenario, _, _) = try build(har)
        #expect(scenario.phases.allSatisfy { ($0.name?.utf8.count ?? 0) <= ScenarioConfig.maxPhaseNameBytes })
        #expect(scenario.phases.first?.rules.first?.match.path == .exact(path))
    }

    @Test func theReaderRefusesWithTheJSONPath() {
        let cases: [(String, String)] = [
            (#"{"log": {"entries": [{"request": {"method": 1, "url": "http://a/"}}]}}"#, "log.entries[0].request.method: expected a string"),
            (#"{"log": {"entries": {}}}"#, "log.entries: expected an array"),
            (#"{"log": {}}"#, "log.entries: missing"),
            (#"{"entries": []}"#, "log: missing"),
            ("[", "not JSON"),
            (String(repeating: "{\"a\":", count: 100), "nested deeper than 64 levels"),
        ]
        for (text, message) in cases {
            #expect(throws: HARReadError.self, "\(text)") { try HARInput.read(Array(text.utf8)) }
            do {
                _ = try HARInput.read(Array(text.utf8))
            } catch {
                #expect(error.description == message, "\(text)")
            }
        }
        #expect(throws: HARReadError.self) { try HARInput.read([UInt8](repeating: 0x20, count: HARInput.maxFileBytes + 1)) }
    }
}
