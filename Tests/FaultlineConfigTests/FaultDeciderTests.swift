import Testing
@testable import FaultlineConfig

@Suite("Fault decider")
struct FaultDeciderTests {
    private let clock = SteppedClock()

    private func decider(seed: UInt64 = 42, _ routes: [CompiledRoute] = []) -> FaultDecider {
        FaultDecider(seed: seed, routes: routes, clock: clock.function)
    }

    private func single(_ when: FaultCondition, kind: FaultKind = .status(StatusFault(code: 503))) -> CompiledRoute {
        route([FaultSpec(name: "f", kind: kind, when: when)])
    }

    @Test func routeWithoutFaultsDecidesNothing() {
        let plain = route([])
        let decision = decider().decide(route: plain)
        #expect(decision.isEmpty)
        #expect(decider().stats().isEmpty)
    }

    @Test func probabilityIsSeededAndReplayable() {
        let faulty = single(FaultCondition(probability: 0.3), kind: .delay(DelayFault(.uniform(minMs: 0, maxMs: 1000))))
        func run(_ seed: UInt64) -> [FaultDecision] {
            let decider = decider(seed: seed, [faulty])
            return (0..<1000).map { _ in decider.decide(route: faulty) }
        }
        let first = run(7).map(\.fired)
        #expect(first == run(7).map(\.fired))
        #expect(first != run(8).map(\.fired))
        let rate = Double(first.filter { !$0.isEmpty }.count) / 1000
        #expect(abs(rate - 0.3) < 0.05)
        // The lazy path (route not given at init) makes the same decisions.
        let lazy = decider(seed: 7)
        #expect((0..<1000).map { _ in lazy.decide(route: faulty).fired } == first)
    }

    @Test func addingAFaultLeavesOthersAlone() {
        let coin = FaultSpec(name: "coin", kind: .reset(ResetFault(afterBytes: 5)), when: FaultCondition(probability: 0.5))
        let extra = FaultSpec(name: "extra", kind: .delay(DelayFault(.uniform(minMs: 0, maxMs: 9))), when: FaultCondition(probability: 0.5))
        let alone = route([coin])
        let both = route([coin, extra])
        let one = decider()
        let two = decider()
        let lhs = (0..<500).map { _ in one.decide(route: alone).fired.contains { $0.name == "coin" } }
        let rhs = (0..<500).map { _ in two.decide(route: both).fired.contains { $0.name == "coin" } }
        #expect(lhs == rhs)
    }

    @Test func firstAfterAndEveryNth() {
        #expect(firings(decider(), single(FaultCondition(firstN: 3)), count: 6) == [true, true, true, false, false, false])
        #expect(firings(decider(), single(FaultCondition(afterN: 2)), count: 5) == [false, false, true, true, true])
        #expect(firings(decider(), single(FaultCondition(everyNth: 3)), count: 7) == [false, false, true, false, false, true, false])
        #expect(firings(decider(), single(FaultCondition(afterN: 1, everyNth: 2)), count: 6)
            == [false, true, false, true, false, true])
    }

    @Test func sequenceReplacesStatusThenPasses() {
        let retry = single(FaultCondition(sequence: [.status(503), .status(502), .pass, .fire]))
        let decider = decider()
        let codes: [Int?] = (0..<6).map { _ in
            guard case .status(let status)? = decider.decide(route: retry).fired.first?.action else { return nil }
            return status.code
        }
        #expect(codes == [503, 502, nil, 503, nil, nil])
        let boolean = single(FaultCondition(sequence: [.pass, .fire]), kind: .close(CloseFault()))
        #expect(firings(self.decider(), boolean, count: 3) == [false, true, false])
    }

    @Test func activeWindowFollowsTheClock() {
        let outage = single(FaultCondition(activeForMs: 60_000))
        let decider = decider()
        #expect(!decider.decide(route: outage).isEmpty)
        clock.advance(59_999)
        #expect(!decider.decide(route: outage).isEmpty)
        clock.advance(1)
        #expect(decider.decide(route: outage).isEmpty)
        decider.resetCounters()
        #expect(!decider.decide(route: outage).isEmpty)
    }

    @Test func maxActiveCapsConcurrentInjections() {
        let capped = single(FaultCondition(maxActive: 2), kind: .hang(HangFault()))
        let decider = decider([capped])
        let first = decider.decide(route: capped)
        let second = decider.decide(route: capped)
        let third = decider.decide(route: capped)
        #expect(!first.isEmpty && !second.isEmpty && third.isEmpty)
        #expect(decider.stats().map(\.active) == [2])
        decider.finished(first)
        let fourth = decider.decide(route: capped)
        #expect(!fourth.isEmpty)
        decider.finished(second)
        decider.finished(fourth)
        decider.finished(third)
        #expect(decider.stats().map(\.active) == [0])
    }

    @Test func statsCountMatchedFiredActive() {
        let faulty = route([
            FaultSpec(name: "odd", kind: .status(StatusFault(code: 500, upstream: true)), when: FaultCondition(everyNth: 2)),
            FaultSpec(name: "off", kind: .reset(ResetFault()), enabled: false),
        ], index: 3, name: "users")
        let decider = decider([faulty])
        let decisions = (0..<5).map { _ in decider.decide(route: faulty) }
        decider.finished(decisions[1])
        #expect(decider.stats() == [
            FaultStats(routeIndex: 3, routeName: "users", faultIndex: 0, faultName: "odd", matched: 5, fired: 2, active: 1),
            FaultStats(routeIndex: 3, routeName: "users", faultIndex: 1, faultName: "off", matched: 0, fired: 0, active: 0),
        ])
        decider.resetCounters()
        #expect(decider.stats().map(\.matched) == [0, 0])
        #expect(decider.stats().map(\.active) == [1, 0])
    }

    @Test func unseededDeciderPicksASeed() {
        let faulty = single(FaultCondition(probability: 0.5))
        let decider = FaultDecider(seed: nil, clock: clock.function)
        let replay = FaultDecider(seed: decider.seed, clock: clock.function)
        #expect(firings(decider, faulty, count: 200) == firings(replay, faulty, count: 200))
    }

    @Test func lossyProfileDropsItsShare() {
        let bad = single(FaultCondition(), kind: .profile(.veryBad))
        let decider = decider()
        let lost = (0..<2000).filter { _ in
            decider.decide(route: bad).fired.first?.action == .profile(.veryBad, lost: true)
        }.count
        #expect(abs(Double(lost) / 2000 - 0.1) < 0.03)
        let none = single(FaultCondition(), kind: .profile(.totalLoss))
        #expect(self.decider().decide(route: none).fired.first?.action == .profile(.totalLoss, lost: true))
    }
}
