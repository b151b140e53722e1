import Testing
@testable import FaultlineProxy
import FaultlineConfig

@Suite("Runtime rule overlay")
struct AdminRuleOverlayTests {
    private static let status = FaultSpec(name: "status", kind: .status(StatusFault(code: 503)))
    private static let delay = FaultSpec(name: "delay", kind: .delay(DelayFault(.fixed(ms: 5))))

    private func config(_ routes: [RouteConfig], upstreams: [String] = ["demo"]) -> ProxyConfig {
        ProxyConfig(listeners: [], upstreams: upstreams.map { UpstreamConfig(name: $0, host: "127.0.0.1") }, routes: routes, seed: 7)
    }

    private let base = [RouteConfig(name: "users", match: RouteMatch(path: .prefix("/users")), upstream: "demo", faults: [delay]),
                        RouteConfig(name: "all", upstream: "demo")]

    private func rule(_ name: String, faults: [FaultSpec] = [status]) -> RouteConfig {
        RouteConfig(name: name, match: RouteMatch(path: .exact("/\(name)")), upstream: "demo", faults: faults)
    }

    @Test func emptyOverlayKeepsTheConfig() throws {
        #expect(try RuleOverlay().apply(to: config(base)) == config(base))
    }

    @Test func addsAtTheStartByDefaultAndAtTheEndOnRequest() throws {
        var overlay = RuleOverlay()
        try overlay.add(rule("a"), at: .start, current: config(base))
        try overlay.add(rule("b"), at: .start, current: config(base))
        try overlay.add(rule("z"), at: .end, current: config(base))
        let effective = try overlay.apply(to: config(base))
        #expect(effective.routes.map(\.name) == ["b", "a", "users", "all", "z"])
        #expect(effective.seed == 7)
        #expect(overlay.isRuntimeRule("a") && !overlay.isRuntimeRule("users"))
    }

    @Test func refusesADuplicateName() throws {
        var overlay = RuleOverlay()
        do {
            try overlay.add(rule("users"), at: .start, current: config(base))
            Issue.record("duplicate accepted")
        } catch {
            #expect(error.status == 409)
        }
        #expect(overlay == RuleOverlay())
    }

    @Test func replacesRuntimeRulesInPlaceAndFileRoutesByName() throws {
        var overlay = RuleOverlay()
        try overlay.add(rule("a"), at: .end, current: config(base))
        let current = try overlay.apply(to: config(base))
        let replacedRuntime = overlay.replace(rule("a", faults: []), current: current)
        let replacedFile = overlay.replace(rule("users", faults: []), current: current)
        let added = overlay.replace(rule("new"), current: current)
        #expect(!replacedRuntime && !replacedFile && added)
        let effective = try overlay.apply(to: config(base))
        #expect(effective.routes.map(\.name) == ["new", "users", "all", "a"])
        #expect(effective.routes[1] == rule("users", faults: []))
        #expect(effective.routes[3].faults.isEmpty)
        #expect(overlay.isReplaced("users"))
    }

    @Test func removesRuntimeAndFileRules() throws {
        var overlay = RuleOverlay()
        try overlay.add(rule("a"), at: .start, current: config(base))
        var current = try overlay.apply(to: config(base))
        try overlay.remove("a", current: current)
        try overlay.remove("users", current: current)
        current = try overlay.apply(to: config(base))
        #expect(current.routes.map(\.name) == ["all"])
        do {
            try overlay.remove("users", current: current)
            Issue.record("removed twice")
        } catch {
            #expect(error.status == 404)
        }
    }

    @Test func disablingARuleSwitchesItsFaultsOffButKeepsTheRoute() throws {
        var overlay = RuleOverlay()
        try overlay.setEnabled(false, rule: "users", current: config(base))
        var effective = try overlay.apply(to: config(base))
        #expect(effective.routes.map(\.name) == ["users", "all"])
        #expect(effective.routes[0].faults.map(\.enabled) == [false])
        #expect(!overlay.isEnabled("users"))
        try overlay.setEnabled(true, rule: "users", current: effective)
        effective = try overlay.apply(to: config(base))
        #expect(effective == config(base))
    }

    @Test func switchesOneFault() throws {
        var overlay = RuleOverlay()
        let two = RouteConfig(name: "two", upstream: "demo", faults: [Self.delay, Self.status])
        try overlay.add(two, at: .start, current: config(base))
        var current = try overlay.apply(to: config(base))
        try overlay.setEnabled(false, rule: "two", fault: "status", current: current)
        current = try overlay.apply(to: config(base))
        #expect(current.routes[0].faults.map(\.enabled) == [true, false])
        do {
            try overlay.setEnabled(false, rule: "two", fault: "nope", current: current)
            Issue.record("unknown fault accepted")
        } catch {
            #expect(error.status == 404)
            #expect(error.message.contains("known: delay, status"))
        }
    }

    @Test func newDefinitionClearsSwitches() throws {
        var overlay = RuleOverlay()
        try overlay.setEnabled(false, rule: "users", current: config(base))
        _ = overlay.replace(rule("users"), current: try overlay.apply(to: config(base)))
        #expect(overlay.isEnabled("users"))
    }

    @Test func changesToNamesGoneAfterAReloadAreSkippedAndReported() throws {
        var overlay = RuleOverlay()
        let current = config(base)
        _ = overlay.replace(rule("users", faults: []), current: current)
        try overlay.remove("all", current: current)
        try overlay.add(rule("a"), at: .start, current: current)
        try overlay.setEnabled(false, rule: "a", fault: "status", current: try overlay.apply(to: current))
        #expect(overlay.stale(base: current).isEmpty)

        // The file now has other routes: "users" and "all" are gone, "fresh" is new.
        let reloaded = config([RouteConfig(name: "fresh", upstream: "demo")])
        let effective = try overlay.apply(to: reloaded)
        #expect(effective.routes.map(\.name) == ["a", "fresh"])
        let stale = overlay.stale(base: reloaded)
        #expect(stale.count == 2)
        #expect(stale.contains { $0.contains("replacement of \"users\"") })
        #expect(stale.contains { $0.contains("removal of \"all\"") })
    }

    @Test func runtimeRulesWhoseUpstreamIsGoneAreSkipped() throws {
        var overlay = RuleOverlay()
        let current = config(base, upstreams: ["demo", "old"])
        try overlay.add(RouteConfig(name: "x", upstream: "old"), at: .start, current: current)
        #expect(try overlay.apply(to: current).routes.map(\.name) == ["x", "users", "all"])
        let reloaded = config(base)
        #expect(try overlay.apply(to: reloaded).routes.map(\.name) == ["users", "all"])
        #expect(overlay.stale(base: reloaded) == [#"rule "x": upstream "old" no longer exists; the rule is not in effect"#])
    }

    @Test func aRuntimeRuleHidesAFileRouteOfTheSameNameAddedLater() throws {
        var overlay = RuleOverlay()
        try overlay.add(rule("later"), at: .start, current: config(base))
        let reloaded = config(base + [RouteConfig(name: "later", upstream: "demo")])
        #expect(try overlay.apply(to: reloaded).routes.map(\.name) == ["later", "users", "all"])
    }
}
