import Foundation
import Testing
import FaultlineTestSupport

/// A seed makes random fault decisions replayable: the same seed and request order give
/// the same fire/no-fire decisions on another run of the binary; another seed differs.
@Suite(.timeLimit(.minutes(1)))
struct FaultReplayTests {
    static let requests = 50

    /// Starts a proxy with `seed`, sends 50 requests in order on one connection, and
    /// returns which ones the 50 % fault fired on (seen by status and by marker header).
    static func decisions(seed: UInt64) async throws -> [Bool] {
        let stack = try await FaultStack.single("coin",
                                                faults: #"{"status": 503, "when": {"probability": 0.5}}"#,
                                                topLevel: "\"seed\": \(seed)")
        defer { stack.stop() }
        let rows = try await FaultCurl.sequence((1...requests).map { stack.url("/json?n=\($0)") })
        for row in rows {
            #expect(row.code == 503 || row.code == 200, "\(row)")
            #expect((row.code == 503) == (row.fault == "coin/status"), "status and marker disagree: \(row)")
        }
        return rows.map { $0.code == 503 }
    }

    static func pattern(_ decisions: [Bool]) -> String { String(decisions.map { $0 ? "X" : "." }) }

    @Test func sameSeedSameDecisionsOtherSeedDiffers() async throws {
        async let first = FaultReplayTests.decisions(seed: 42)
        async let second = FaultReplayTests.decisions(seed: 42)
        async let other = FaultReplayTests.decisions(seed: 7)
        let (a, b, c) = try await (first, second, other)
        print("FAULT-REPLAY seed 42 run 1: \(Self.pattern(a))")
        print("FAULT-REPLAY seed 42 run 2: \(Self.pattern(b))")
        print("FAULT-REPLAY seed 7:        \(Self.pattern(c))")
        #expect(a == b, "same seed, different decisions:\n\(Self.pattern(a))\n\(Self.pattern(b))")
        #expect(a != c, "seeds 42 and 7 gave the same 50 decisions: \(Self.pattern(a))")
        // A fair coin: 50 draws fire between 10 and 40 times (outside is < 1e-5 likely).
        for run in [a, b, c] {
            let fired = run.filter { $0 }.count
            #expect((10...40).contains(fired), "probability 0.5 fired \(fired) of 50: \(Self.pattern(run))")
        }
    }
}
