import Foundation
import Testing
@testable import FaultlineConfig

@Suite("Admin rule parsing")
struct AdminRuleParsingTests {
    private let upstreams = [UpstreamConfig(name: "demo", host: "127.0.0.1", port: 8081),
                             UpstreamConfig(name: "staging", host: "staging.example.com")]

    private func errors(_ json: String, name: String? = nil) -> [String] {
        do {
            _ = try ConfigLoader.parseRuleWithPosition(Data(json.utf8), upstreams: upstreams, baseDirectory: nil, name: name)
            return []
        } catch {
            return error.errors.map(\.description)
        }
    }

    @Test func parsesARuleInTheConfigFormat() throws {
        let json = #"""
        {"name": "search-down", "match": {"path_prefix": "/users"}, "upstream": "demo",
         "faults": [{"status": {"code": 503, "headers": {"Retry-After": "5"}}, "when": {"sequence": [503, 503, "pass"]}}]}
        """#
        let rule = try ConfigLoader.parseRule(Data(json.utf8), upstreams: upstreams, baseDirectory: nil)
        #expect(rule.name == "search-down")
        #expect(rule.match == RouteMatch(path: .prefix("/users")))
        #expect(rule.upstream == "demo")
        #expect(rule.faults.count == 1)
        #expect(rule.faults.first?.name == "status")
        #expect(rule.faults.first?.kind == .status(StatusFault(code: 503, headers: [FaultHeader(name: "Retry-After", value: "5")])))
        #expect(rule.faults.first?.when.sequence == [.status(503), .status(503), .pass])
    }

    @Test func sameRuleAsTheFileGivesTheSameRoute() throws {
        let route = #"{"name": "r", "match": {"methods": ["GET"], "path_glob": "/a/*"}, "upstream": "staging", "faults": [{"delay": {"uniform": {"min_ms": 1, "max_ms": 9}}}, {"reset": {}}]}"#
        let fromFile = try loadConfig(withRoute(route)).routes
        let fromAdmin = try ConfigLoader.parseRule(Data(route.utf8), upstreams: upstreams, baseDirectory: nil)
        #expect(fromFile == [fromAdmin])
    }

    @Test func readsThePosition() throws {
        let end = try ConfigLoader.parseRuleWithPosition(
            Data(#"{"name": "r", "upstream": "demo", "position": "end"}"#.utf8), upstreams: upstreams, baseDirectory: nil)
        #expect(end.position == .end)
        let none = try ConfigLoader.parseRuleWithPosition(
            Data(#"{"name": "r", "upstream": "demo"}"#.utf8), upstreams: upstreams, baseDirectory: nil)
        #expect(none.position == nil)
        #expect(errors(#"{"name": "r", "upstream": "demo", "position": "middle"}"#)
            == [#"rule.position: expected "start" or "end", got "middle""#])
    }

    @Test func parseRuleRefusesPositionAsTheFileWould() {
        do {
            _ = try ConfigLoader.parseRule(Data(#"{"name": "r", "upstream": "demo", "position": "end"}"#.utf8),
                                           upstreams: upstreams, baseDirectory: nil)
            Issue.record("position accepted")
        } catch {
            #expect(error.errors.map(\.path) == ["rule.position"])
        }
    }

    @Test func namesTheFieldOfEveryImpossibleValue() {
        #expect(errors(#"{"name": "r", "upstream": "demo", "faults": [{"status": 503, "when": {"probability": 1.5}}]}"#)
            == ["rule.faults[0].when.probability: expected a number 0...1, got 1.5"])
        #expect(errors(#"{"name": "r", "upstream": "demo", "faults": [{"status": {"code": 99}}]}"#)
            == ["rule.faults[0].status.code: expected 100...599, got 99"])
        #expect(errors(#"{"name": "r", "upstream": "nowhere"}"#)
            == [#"rule.upstream: unknown upstream "nowhere" (known: demo, staging)"#])
        #expect(errors(#"{"name": "r", "upstream": "demo", "faults": [{"explode": {}}]}"#).first?.hasPrefix("rule.faults[0]") == true)
        #expect(errors(#"{"name": "r", "upstream": "demo", "matc": {}}"#)
            == [#"rule.matc: unknown key; did you mean "match"?"#])
    }

    @Test func reportsEveryProblemAtOnce() {
        let found = errors(#"{"upstream": "nowhere", "faults": [{"delay": -1}]}"#)
        #expect(found.contains { $0.hasPrefix("rule.upstream:") })
        #expect(found.contains { $0.hasPrefix("rule.faults[0].delay:") })
        #expect(found.contains { $0.hasPrefix("rule.name: expected a non-empty string") })
    }

    @Test func takesTheNameFromTheURL() throws {
        let rule = try ConfigLoader.parseRule(Data(#"{"upstream": "demo"}"#.utf8), upstreams: upstreams,
                                              baseDirectory: nil, name: "from-url")
        #expect(rule.name == "from-url")
        #expect(errors(#"{"name": "other", "upstream": "demo"}"#, name: "from-url")
            == [#"rule.name: expected "from-url" (the name in the URL), got "other""#])
        #expect(errors(#"{"name": "from-url", "upstream": "demo"}"#, name: "from-url").isEmpty)
    }

    @Test func malformedJSONSaysWhere() {
        let found = errors("{\"name\": ")
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("invalid JSON at line 1") == true)
        #expect(errors("[1]") == ["rule: expected an object, got an array"])
    }
}
