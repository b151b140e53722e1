import Foundation
import Synchronization
import Testing
@testable import FaultlineProxy
import FaultlineConfig

/// The scenario board without sockets or timers: counted phases under contention, and timed
/// phases ended by the first request past their deadline (the timer loop is not connected).
@Suite("Scenario board")
struct ScenarioBoardTests {
    private static func board(_ scenario: String) throws -> (ScenarioBoard, ConfigSnapshot) {
        let snapshot = try ExchangeStarterTests.snapshot()
        let board = ScenarioBoard(session: nil, seed: 7, config: snapshot.config, reporter: ScenarioReporter())
        let config = try ScenarioConfig.load(json: Data(scenario.utf8), upstreams: snapshot.config.upstreams)
        _ = try board.define(config, now: 0)
        return (board, snapshot)
    }

    @Test func aCountedPhaseTakesExactlyItsRequestsUnderContention() throws {
        let (board, snapshot) = try Self.board(#"""
        {"name": "c", "phases": [{"requests": 100, "rules": [{"name": "a"}]}, {"requests": 50, "rules": [{"name": "b"}]}, {"rules": []}]}
        """#)
        try board.start("c", now: 1)
        let perPhase = Mutex([Int: Int]())
        let routes = snapshot.routes
        // 8 threads at once, 40 requests each: the count must hold exactly under contention.
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            guard let head = try? ExchangeStarterTests.head("GET /x HTTP/1.1\r\nHost: api.example\r\n\r\n") else { return }
            for _ in 0..<40 {
                let hit = board.route(head, client: "192.0.2.7", global: routes, now: 2)
                perPhase.withLock { $0[hit?.phase.index ?? -1, default: 0] += 1 }
            }
        }
        #expect(perPhase.withLock { $0 } == [0: 100, 1: 50, -1: 170])
        #expect(board.slots.first?.phase?.index == 2)
        #expect(board.slots.first?.transitions == 3)
    }

    @Test func aLateRequestCatchesATimedLoopUpWithoutStretchingIt() throws {
        let (board, snapshot) = try Self.board(#"""
        {"name": "t", "loop": true, "phases": [{"for_ms": 1, "rules": [{"name": "a"}]}, {"for_ms": 1, "rules": [{"name": "b"}]}]}
        """#)
        try board.start("t", now: 1_000_000_000)
        let head = try ExchangeStarterTests.head("GET /x HTTP/1.1\r\nHost: api.example\r\n\r\n")
        // 10.5 ms later: ten phases of 1 ms have ended, so phase 0 of cycle 5 runs, begun at +10 ms.
        let hit = board.route(head, client: "192.0.2.7", global: snapshot.routes, now: 1_010_500_000)
        #expect(hit?.phase.index == 0)
        #expect(hit?.phase.cycle == 5)
        #expect(hit?.phase.startedNs == 1_010_000_000)
        #expect(hit?.route.name == "a")
        #expect(board.slots.first?.transitions == 11)
    }

    @Test func stopAndFinishTakeTheRulesOutOfEffect() throws {
        let (board, snapshot) = try Self.board(#"{"name": "f", "phases": [{"requests": 1, "rules": [{"name": "a"}]}]}"#)
        let head = try ExchangeStarterTests.head("GET /x HTTP/1.1\r\nHost: api.example\r\n\r\n")
        #expect(board.route(head, client: "192.0.2.7", global: snapshot.routes, now: 1) == nil)
        try board.start("f", now: 1)
        #expect(board.route(head, client: "192.0.2.7", global: snapshot.routes, now: 2)?.route.name == "a")
        #expect(board.route(head, client: "192.0.2.7", global: snapshot.routes, now: 3) == nil)
        #expect(board.slots.first?.stateName == "finished")
        try board.start("f", now: 4)
        try board.stop("f")
        #expect(board.route(head, client: "192.0.2.7", global: snapshot.routes, now: 5) == nil)
        #expect(board.runningCount.load(ordering: .relaxed) == 0)
    }
}
