import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import FaultlineTestSupport
@testable import FaultlineTesting

/// `session.scenario(…)` end to end: typed phases, the status, waiting for a phase, and the
/// journal saying which phase each request met.
@Suite("Scenarios through the library", .timeLimit(.minutes(2)))
struct ScenarioLibraryTests {
    private static func status(_ client: URLSession, _ url: URL) async throws -> Int {
        let (_, response) = try await client.data(from: url)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }

    @Test func phasesEncodeToTheScenarioFormat() {
        let scenario = Scenario("pay", phases: [
            .lasting(.milliseconds(1500), named: "down", rules: [.pathPrefix("/pay").fault(.status(503))]),
            .requests(2, rules: [.path("/pay").named("slow")]),
            .untilStopped(),
        ])
        #expect(scenario.jsonText.contains(#""for_ms":1500"#))
        #expect(scenario.jsonText.contains(#""requests":2"#))
        #expect(scenario.jsonText.contains(#""name":"rule-1""#))
        #expect(scenario.jsonText.contains(#""name":"slow""#))
    }

    @Test func aSessionRunsItsTimelineAndTheJournalNamesThePhases() async throws {
        let faultline = try await Launching.faultline()
        defer { faultline.stop() }
        let url = faultline.proxyURL.appendingPathComponent("json")
        try await faultline.session("timeline") { session in
            let started = try await session.scenario(Scenario("flaky", phases: [
                .requests(2, named: "down", rules: [.path("/json").fault(.status(503))]),
                .lasting(.milliseconds(200), named: "throttled", rules: [.path("/nothing")]),
                .untilStopped(named: "recovered"),
            ]))
            #expect(started.state == "running")
            #expect(started.current?.requestsLeft == 2)
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = 10
            session.configure(configuration)
            let client = URLSession(configuration: configuration)
            #expect(try await Self.status(client, url) == 503)
            #expect(try await Self.status(client, url) == 503)
            try await session.waitForPhase(2, of: "flaky")
            #expect(try await Self.status(client, url) == 200)
            let marks = try await session.requests().map { $0.scenario?.phaseName }
            #expect(marks == ["down", "down", "recovered"])
            try await session.stopScenario("flaky")
            #expect(try await session.scenarioStatus("flaky").state == "stopped")
            // A request outside the session met no scenario.
            let (_, response) = try await URLSession(configuration: .ephemeral).data(from: url)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(try await faultline.requests().last?.scenario == nil)
        }
    }

    @Test func anInvalidScenarioIsRefusedWithTheField() async throws {
        let faultline = try await Launching.faultline()
        defer { faultline.stop() }
        try await faultline.session("invalid") { session in
            let error = await #expect(throws: FaultlineError.self) {
                try await session.scenario(Scenario("bad name", phases: [.untilStopped()]))
            }
            #expect(error?.description.contains("scenario.name") == true, "\(String(describing: error))")
        }
    }
}
