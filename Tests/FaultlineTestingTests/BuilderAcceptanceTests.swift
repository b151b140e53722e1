import Foundation
import Testing
import FaultlineTestSupport
@testable import FaultlineTesting

/// Every builder's JSON is accepted by the real binary's admin API, and a refusal comes
/// back as `FaultlineError.refused` with the proxy's field path.
@Suite("Builders against the binary", .timeLimit(.minutes(2)))
struct BuilderAcceptanceTests {
    /// One fault of every kind and option, and every condition.
    static let faults: [Fault] = [
        .status(503), .status(503, retryAfter: 2, body: "{}", contentType: "application/json", headers: ["X-Test": "1"]),
        .status(502, callUpstream: true),
        .delay(ms: 10), .delay(.milliseconds(20), phase: .firstByte), .delay(uniformMs: 1...5),
        .delay(lognormalMedianMs: 5, sigma: 0.5, maxMs: 50),
        .hang(), .hang(ms: 100, then: .reset),
        .throttle(kbps: 64), .throttle(downBytesPerSecond: 1000, upBytesPerSecond: 500, chunkBytes: 100),
        .reset(), .reset(afterBytes: 10, errorCode: .cancel), .close(), .close(afterBytes: 3),
        .truncate(keepBytes: 2),
        .corrupt(.malformedJSON), .corrupt(.garbageThenClose), .corrupt(.badChunkFraming),
        .rewrite(status: 201), .rewrite(addHeaders: ["X-A": "b"], removeHeaders: ["ETag"]),
        .profile(.threeG), .profile(.veryBad), .profile(.totalLoss),
        .rstStream(), .rstStream(errorCode: .refusedStream), .goAway(), .goAway(immediate: true, errorCode: 11),
        .status(503).sequence([503, 429, .pass, .fire]), .delay(ms: 1).firstN(2).afterN(1).everyNth(3),
        .delay(ms: 1).probability(0.25).activeFor(ms: 1000).maxActive(2).named("slow").disabled(),
    ]

    @Test func everyBuilderIsAcceptedAsAGlobalRule() async throws {
        let faultline = try await Launching.faultline()
        defer { faultline.stop() }
        for (index, fault) in Self.faults.enumerated() {
            let rule = Rule.path("/accept/\(index)").methods("GET").host("localhost").fault(fault)
            do {
                let name = try await faultline.add(rule)
                try await faultline.remove(rule: name)
            } catch {
                Issue.record("\(fault.jsonText) was refused: \(error)")
            }
        }
        let everything = Self.faults.filter { $0.kind != "profile" && $0.kind != "hang" }
            .reduce(Rule.pathGlob("/all/*").named("all"), { $0.fault($1) })
        #expect(try await faultline.add(everything) == "all")
    }

    @Test func requestConditionBuildersAreAcceptedGloballyAndInASession() async throws {
        let faultline = try await Launching.faultline()
        defer { faultline.stop() }
        let rule = Rule.pathPrefix("/api").header("X-Test", "1").header("authorization", present: false)
            .query("mode", "fail*").query("debug", present: true).cookie("session", "abc").cookie("beta", present: false)
            .client("127.0.0.0/8", "::1").not(.any.header("x-canary", present: true)).json("/user/tier", "gold")
            .json("/a~1b", present: false).fault(.status(503))
        #expect(try await faultline.add(rule.named("conditions")) == "conditions")
        let inSession = try await faultline.session { session in
            try await session.add(rule.named("conditions"))
        }
        #expect(inSession == "conditions")
    }

    @Test func everyBuilderIsAcceptedAsASessionRule() async throws {
        let faultline = try await Launching.faultline()
        defer { faultline.stop() }
        try await faultline.session("builders") { session in
            for (index, fault) in Self.faults.enumerated() {
                do {
                    let name = try await session.add(.path("/accept/\(index)").fault(fault))
                    try await session.remove(rule: name)
                } catch {
                    Issue.record("\(fault.jsonText) was refused in a session: \(error)")
                }
            }
            let routed = try await session.add(.pathPrefix("/routed").upstream("default").named("routed"))
            #expect(routed == "routed")
        }
    }

    @Test func refusalCarriesTheFieldPath() async throws {
        let faultline = try await Launching.faultline()
        defer { faultline.stop() }
        let error = await #expect(throws: FaultlineError.self) {
            try await faultline.add(.path("/x").fault(.status(999)))
        }
        guard case .refused(let status, let message, let field)? = error else {
            Issue.record("expected refused, got \(String(describing: error))")
            return
        }
        #expect(status == 400)
        #expect(field == "rule.faults[0].status.code")
        #expect(message.contains("999"))
        #expect(error?.description.contains("rule.faults[0].status.code") == true)
        try await faultline.session { session in
            do {
                try await session.add(.path("/x").fault(.status(999)))
                Issue.record("status 999 was accepted in a session")
            } catch FaultlineError.refused(let status, _, let field) {
                #expect(status == 400)
                #expect(field?.hasSuffix("faults[0].status.code") == true, "field \(String(describing: field))")
            }
        }
    }
}
