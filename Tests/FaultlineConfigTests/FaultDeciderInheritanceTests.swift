import Testing
import Foundation
@testable import FaultlineConfig

@Suite("Fault counters across rule-set changes")
struct FaultDeciderInheritanceTests {
    private func config(_ routes: [RouteConfig]) -> ProxyConfig {
        ProxyConfig(listeners: [ListenerConfig(address: SocketAddressSpec(host: "127.0.0.1", port: 0))],
                    upstreams: [UpstreamConfig(name: "o", host: "127.0.0.1", port: 9)], routes: routes, seed: 1)
    }

    private func sequenceRule() throws -> RouteConfig {
        let data = Data(#"{"name": "search", "upstream": "o", "faults": [{"status": 503, "when": {"sequence": [503, "pass", 503]}}]}"#.utf8)
        return try ConfigLoader.parseRule(data, upstreams: config([]).upstreams, baseDirectory: nil)
    }

    private func fires(_ decider: FaultDecider, _ table: RouteTable) -> Bool {
        guard let route = table.routes.first(where: { $0.name == "search" }) else { return false }
        let decision = decider.decide(route: route)
        defer { decider.finished(decision) }
        return !decision.isEmpty
    }

    @Test func anUnchangedRuleContinuesItsSequenceWhenAnotherRuleIsAdded() throws {
        let search = try sequenceRule()
        let first = RouteTable(config: config([search]))
        let before = FaultDecider(seed: 1, routes: first.routes, clock: { 0 })
        #expect(fires(before, first))
        // A new rule in front shifts every index; the search rule is the same rule.
        let other = RouteConfig(name: "other", match: RouteMatch(path: .prefix("/x")), upstream: "o")
        let second = RouteTable(config: config([other, search]))
        let after = FaultDecider(seed: 1, routes: second.routes, clock: { 0 }, inheriting: before)
        #expect(!fires(after, second), "the sequence goes on at its second step (pass)")
        #expect(fires(after, second))
        let fresh = FaultDecider(seed: 1, routes: second.routes, clock: { 0 })
        #expect(fires(fresh, second), "without inheritance the sequence restarts")
    }

    @Test func aChangedRuleStartsAfresh() throws {
        let search = try sequenceRule()
        let table = RouteTable(config: config([search]))
        let before = FaultDecider(seed: 1, routes: table.routes, clock: { 0 })
        #expect(fires(before, table))
        let changed = RouteConfig(name: "search", match: search.match, upstream: "o",
                                  faults: search.faults.map { FaultSpec(name: $0.name, kind: $0.kind, when: FaultCondition(), enabled: true) })
        let newTable = RouteTable(config: config([changed]))
        let after = FaultDecider(seed: 1, routes: newTable.routes, clock: { 0 }, inheriting: before)
        #expect(after.stats().first?.matched == 0)
    }
}
