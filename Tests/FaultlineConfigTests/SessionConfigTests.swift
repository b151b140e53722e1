import Foundation
import Testing
@testable import FaultlineConfig

/// The `sessions` and `journal` blocks, the body of `POST /sessions` and session rules.
@Suite("Session config")
struct SessionConfigTests {
    private static let minimal = #"{"listeners": [{"address": "127.0.0.1:0"}], "upstreams": {"demo": {"url": "http://127.0.0.1:1"}}"#

    private static func load(_ extra: String) throws -> ProxyConfig {
        try ConfigLoader.parse(Data((minimal + (extra.isEmpty ? "" : ", " + extra) + "}").utf8), file: nil)
    }

    private static func errors(_ extra: String) -> [String] {
        do {
            _ = try load(extra)
            return []
        } catch let error as ConfigErrors {
            return error.errors.map(\.description)
        } catch {
            return ["\(error)"]
        }
    }

    @Test func defaultsAndValues() throws {
        let defaults = try Self.load("")
        #expect(defaults.sessions == SessionsConfig(max: 1000, journalCapacity: 1000, defaultTTLSeconds: 600))
        #expect(defaults.journal.capacity == 1000)
        let set = try Self.load(#""sessions": {"max": 5, "journal_capacity": 0, "default_ttl_s": 30}, "journal": {"capacity": 0}"#)
        #expect(set.sessions == SessionsConfig(max: 5, journalCapacity: 0, defaultTTLSeconds: 30))
        #expect(set.journal.capacity == 0)
    }

    @Test func outOfRangeValuesNameKeyRangeAndValue() {
        #expect(Self.errors(#""sessions": {"max": 0}"#) == ["sessions.max: expected an integer 1...100000, got 0"])
        #expect(Self.errors(#""sessions": {"default_ttl_s": 86401}"#)
            == ["sessions.default_ttl_s: expected an integer 1...86400, got 86401"])
        #expect(Self.errors(#""sessions": {"journal_capacity": -1}"#)
            == ["sessions.journal_capacity: expected an integer 0...100000, got -1"])
        #expect(Self.errors(#""journal": {"capacity": "big"}"#) == [#"journal.capacity: expected an integer 0...1000000, got "big""#])
        #expect(Self.errors(#""journal": {"size": 1}"#).first?.hasPrefix("journal.size: unknown key") == true)
    }

    @Test func sessionRequests() throws {
        let empty = try ConfigLoader.parseSessionRequest(Data(), defaultTTLSeconds: 60)
        #expect(empty == SessionRequest(name: "", ttlSeconds: 60, seed: nil, clients: []))
        let full = try ConfigLoader.parseSessionRequest(
            Data(#"{"name": "n", "ttl_s": 5, "seed": 9007199254740992, "clients": ["127.0.0.2", "::1", "127.0.0.2"]}"#.utf8),
            defaultTTLSeconds: 60)
        #expect(full == SessionRequest(name: "n", ttlSeconds: 5, seed: 1 << 53, clients: ["127.0.0.2", "::1"]))
        #expect(throws: ConfigErrors.self) {
            try ConfigLoader.parseSessionRequest(Data(#"{"name": "\#(String(repeating: "x", count: 201))"}"#.utf8), defaultTTLSeconds: 60)
        }
        #expect(throws: ConfigErrors.self) { try ConfigLoader.parseSessionRequest(Data("[]".utf8), defaultTTLSeconds: 60) }
    }

    @Test func aSessionRuleMayLeaveOutItsUpstream() throws {
        let upstreams = [UpstreamConfig(name: "demo", host: "127.0.0.1", port: 1)]
        let rule = try ConfigLoader.parseSessionRule(Data(#"{"name": "r", "match": {"path": "/x"}, "position": "end"}"#.utf8),
                                                     upstreams: upstreams, baseDirectory: nil, confineFiles: true)
        #expect(rule.rule.upstream == "")
        #expect(rule.position == .end)
        // A global rule takes the only upstream there is; with several it must name one.
        #expect(try ConfigLoader.parseRule(Data(#"{"name": "r"}"#.utf8), upstreams: upstreams, baseDirectory: nil).upstream == "demo")
        #expect(throws: ConfigErrors.self) {
            try ConfigLoader.parseRule(Data(#"{"name": "r"}"#.utf8),
                                       upstreams: upstreams + [UpstreamConfig(name: "staging", host: "127.0.0.1", port: 2)],
                                       baseDirectory: nil)
        }
        // An empty name is no way to leave it out.
        #expect(throws: ConfigErrors.self) {
            try ConfigLoader.parseSessionRule(Data(#"{"name": "r", "upstream": ""}"#.utf8), upstreams: upstreams, baseDirectory: nil)
        }
        #expect(Self.errors(#""routes": [{"name": "r", "upstream": ""}]"#) == [#"routes[0].upstream: unknown upstream "" (known: demo)"#])
        do {
            _ = try ConfigLoader.parseSessionRule(Data(#"{"name": "r", "upstream": "nope"}"#.utf8), upstreams: upstreams,
                                                  baseDirectory: nil)
            Issue.record("an unknown upstream was accepted")
        } catch {
            #expect(error.errors.first?.path == "rule.upstream")
        }
    }
}
