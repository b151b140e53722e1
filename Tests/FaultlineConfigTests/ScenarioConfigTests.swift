import Foundation
import Testing
@testable import FaultlineConfig

/// Scenario documents: a scenario file, `POST /scenarios`, and the config file's `scenarios`.
@Suite("Scenario config")
struct ScenarioConfigTests {
    private static let upstreams = [UpstreamConfig(name: "api", scheme: "http", host: "127.0.0.1", port: 1)]

    private static func errors(_ text: String, upstreams: [UpstreamConfig]? = upstreams) -> [String] {
        do {
            _ = try ScenarioConfig.load(json: Data(text.utf8), upstreams: upstreams)
            return []
        } catch {
            return error.errors.map(\.description)
        }
    }

    @Test func readsPhasesEndsAndRules() throws {
        let text = #"""
        {"name": "payments-outage", "loop": true, "phases": [
          {"name": "down", "for_ms": 30000, "rules": [{"name": "pay", "match": {"path_prefix": "/pay"},
                                                        "faults": [{"status": {"code": 503}}]}]},
          {"requests": 20, "rules": [{"name": "pay", "upstream": "api", "faults": [{"delay": {"ms": 100}}]}]}]}
        """#
        let scenario = try ScenarioConfig.load(json: Data(text.utf8), upstreams: Self.upstreams)
        #expect(scenario.name == "payments-outage")
        #expect(scenario.loop)
        #expect(scenario.phases.map(\.end) == [.elapsed(milliseconds: 30000), .requests(20)])
        #expect(scenario.phases[0].name == "down")
        #expect(scenario.phases[0].rules.first?.upstream == "")
        #expect(scenario.phases[1].rules.first?.upstream == "api")
        let open = try ScenarioConfig.load(json: Data(#"{"name": "a", "phases": [{"rules": []}]}"#.utf8), upstreams: nil)
        #expect(open.phases == [ScenarioPhase(end: .never, rules: [])])
    }

    @Test func refusalsNameTheKey() {
        #expect(Self.errors(#"{"name": "a", "phases": [{"for_ms": 0}]}"#)
            == ["scenario.phases[0].for_ms: expected an integer 1...86400000, got 0"])
        #expect(Self.errors(#"{"name": "a", "phases": [{"requests": 2000000000, "rules": [{"name": "r"}]}]}"#)
            == ["scenario.phases[0].requests: expected an integer 1...1000000000, got 2000000000"])
        #expect(Self.errors(#"{"name": "a", "phases": [{"for_ms": 5, "requests": 5}]}"#)
            == ["scenario.phases[0]: expected at most one of for_ms and requests, got both"])
        #expect(Self.errors(#"{"name": "a", "phases": [{"requests": 5}]}"#).first?.hasPrefix("scenario.phases[0].requests: a phase that ends after") == true)
        #expect(Self.errors(#"{"name": "a b", "phases": [{}]}"#).first?.hasPrefix("scenario.name: expected a name of") == true)
        #expect(Self.errors(#"{"name": "a", "phases": []}"#) == ["scenario.phases: expected a non-empty array of at most 100 phases, got 0 phases"])
        #expect(Self.errors(#"{"name": "a", "phases": [{}, {}]}"#)
            == ["scenario.phases[0]: only the last phase may have neither for_ms nor requests (the phases after it could never start)"])
        #expect(Self.errors(#"{"name": "a", "loop": true, "phases": [{}]}"#).first?.hasPrefix("scenario.loop: a looping scenario") == true)
        #expect(Self.errors(#"{"name": "a", "phases": [{"rules": [{"name": "r", "upstream": "nope"}]}]}"#)
            == [#"scenario.phases[0].rules[0].upstream: unknown upstream "nope" (known: api)"#])
        #expect(Self.errors(#"{"name": "a", "phases": [{"rules": [{"name": "r"}, {"name": "r"}]}]}"#)
            == [#"scenario.phases[0].rules[1].name: duplicate rule name "r" in this phase (already used by scenario.phases[0].rules[0])"#])
        #expect(Self.errors(#"{"name": "a", "phases": [{"rules": [{"match": {}}]}]}"#)
            == ["scenario.phases[0].rules[0].name: expected a non-empty string (every scenario rule needs a name), got nothing"])
        #expect(Self.errors(#"{"name": "a", "start": true, "phases": [{}]}"#) == [#"scenario.start: unknown key; did you mean "name"?"#]
            || Self.errors(#"{"name": "a", "start": true, "phases": [{}]}"#).first?.hasPrefix("scenario.start: unknown key") == true)
        let many = (0...100).map { _ in "{\"for_ms\": 1}" }.joined(separator: ",")
        #expect(Self.errors("{\"name\": \"a\", \"phases\": [\(many)]}") == ["scenario.phases: expected a non-empty array of at most 100 phases, got 101 phases"])
        let rules = (0...100).map { "{\"name\": \"r\($0)\"}" }.joined(separator: ",")
        #expect(Self.errors("{\"name\": \"a\", \"phases\": [{\"rules\": [\(rules)]}]}") == ["scenario.phases[0].rules: expected an array of at most 100 rules, got 101 rules"])
        #expect(Self.errors(#"{"name": "a", "phases": [{"rules": [{"name": "r", "faults": [{"status": {"code": 500, "body_file": "x"}}]}]}]}"#)
            .first?.contains("scenario rules take inline bodies only") == true)
    }

    @Test func configFileScenarios() throws {
        let base = #"{"listeners": [{"address": "127.0.0.1:0"}], "upstreams": {"api": {"url": "http://127.0.0.1:1"}}, "scenarios": "#
        let good = base + #"[{"name": "a", "start": true, "phases": [{"rules": []}]}, {"name": "b", "phases": [{}]}]}"#
        let config = try ConfigLoader.parse(Data(good.utf8), file: nil)
        #expect(config.scenarios.map(\.name) == ["a", "b"])
        #expect(config.scenarios.map(\.start) == [true, false])
        do {
            _ = try ConfigLoader.parse(Data((base + #"[{"name": "a", "phases": [{}]}, {"name": "a", "phases": [{}]}]}"#).utf8), file: nil)
            Issue.record("a duplicate scenario name was accepted")
        } catch {
            #expect(error.errors.map(\.description) == [#"scenarios[1].name: duplicate scenario name "a" (already used by scenarios[0])"#])
        }
    }
}
