import Testing
@testable import FaultlineConfig

@Suite("Fault composition and sampling")
struct FaultCompositionTests {
    private func decide(_ faults: [FaultSpec]) -> [FiredFault] {
        FaultDecider(seed: 1, clock: { 0 }).decide(route: route(faults)).fired
    }

    @Test func faultsApplyInCompositionOrder() {
        let faults: [FaultSpec] = [
            FaultSpec(name: "corrupt", kind: .corrupt(CorruptFault(mode: .malformedJSON))),
            FaultSpec(name: "late-reset", kind: .reset(ResetFault(afterBytes: 100))),
            FaultSpec(name: "truncate", kind: .truncate(TruncateFault(keepBytes: 10))),
            FaultSpec(name: "first-byte", kind: .delay(DelayFault(.fixed(ms: 5), phase: .firstByte))),
            FaultSpec(name: "rewrite", kind: .rewrite(RewriteFault(status: 500))),
            FaultSpec(name: "replace", kind: .status(StatusFault(code: 502, upstream: true))),
            FaultSpec(name: "down", kind: .throttle(ThrottleFault(downBytesPerSecond: 10))),
            FaultSpec(name: "up", kind: .throttle(ThrottleFault(downBytesPerSecond: 0, upBytesPerSecond: 10))),
            FaultSpec(name: "delay", kind: .delay(DelayFault(.fixed(ms: 7)))),
            FaultSpec(name: "3g", kind: .profile(.threeG)),
        ]
        let fired = decide(faults)
        #expect(fired.map(\.name) == [
            "3g", "delay", "up", "replace", "rewrite", "first-byte", "down", "truncate", "corrupt", "late-reset",
        ])
        #expect(fired.map(\.phase) == [
            .request, .request, .request, .responseHead, .responseHead, .firstByte, .body, .body, .body, .body,
        ])
        #expect(fired[1].action == .delay(ms: 7))
    }

    @Test func terminalFaultStopsLaterOnes() {
        let faults: [FaultSpec] = [
            FaultSpec(name: "rewrite", kind: .rewrite(RewriteFault(status: 500))),
            FaultSpec(name: "synth", kind: .status(StatusFault(code: 503))),
            FaultSpec(name: "delay", kind: .delay(DelayFault(.fixed(ms: 7)))),
            FaultSpec(name: "reset", kind: .reset(ResetFault())),
        ]
        #expect(decide(faults).map(\.name) == ["delay", "synth"])
        let hang = [FaultSpec(name: "delay", kind: .delay(DelayFault(.fixed(ms: 7)))), FaultSpec(name: "hang", kind: .hang(HangFault()))]
        #expect(decide(hang).map(\.name) == ["hang"])
        // A terminal fault that does not fire lets the later ones through.
        let skipped = [
            FaultSpec(name: "synth", kind: .status(StatusFault(code: 503)), when: FaultCondition(firstN: 1)),
            FaultSpec(name: "rewrite", kind: .rewrite(RewriteFault(status: 500))),
        ]
        let decider = FaultDecider(seed: 1, clock: { 0 })
        let shared = route(skipped)
        #expect(decider.decide(route: shared).fired.map(\.name) == ["synth"])
        #expect(decider.decide(route: shared).fired.map(\.name) == ["rewrite"])
        #expect(decider.stats().map(\.matched) == [2, 2])
    }

    @Test func uniformStaysInBounds() {
        var generator = SeededRandom(seed: 3)
        let samples = (0..<5000).map { _ in DelayFault.Distribution.uniform(minMs: 100, maxMs: 300).sample { generator.next() } }
        #expect(samples.allSatisfy { (100...300).contains($0) })
        #expect(samples.contains(100) && samples.contains(300))
        #expect(abs(Double(samples.reduce(0, +)) / 5000 - 200) < 5)
    }

    @Test func lognormalHasItsMedianAndIsClamped() {
        var generator = SeededRandom(seed: 4)
        let samples = (0..<5001).map { _ in
            DelayFault.Distribution.lognormal(medianMs: 200, sigma: 0.5, maxMs: 400).sample { generator.next() }
        }.sorted()
        #expect(samples.allSatisfy { (0...400).contains($0) })
        #expect(samples.last == 400)
        #expect(abs(samples[2500] - 200) < 10)
        let fixed = DelayFault.Distribution.lognormal(medianMs: 200, sigma: 0, maxMs: 400).sample { generator.next() }
        #expect(fixed == 200)
    }

    @Test func seededRandomIsSplitMix64() {
        // Reference values of SplitMix64 seeded with 1234567.
        var generator = SeededRandom(seed: 1_234_567)
        #expect(generator.next() == 6_457_827_717_110_365_317)
        #expect(generator.next() == 3_203_168_211_198_807_973)
        #expect(SeededRandom.value(stream: 1_234_567, index: 1) == 3_203_168_211_198_807_973)
        #expect(SeededRandom.stream(seed: 1, route: 0, fault: 0) != SeededRandom.stream(seed: 1, route: 0, fault: 1))
        #expect(SeededRandom.stream(seed: 1, route: 0, fault: 1) != SeededRandom.stream(seed: 1, route: 1, fault: 0))
    }
}
