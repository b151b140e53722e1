import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import FaultlineTestSupport
@testable import FaultlineTesting

/// Sessions end to end: rules that apply to one session's requests only, the journal,
/// counts and gaps, and cleanup when the body throws.
@Suite("Sessions end to end", .timeLimit(.minutes(2)))
struct SessionTests {
    private struct BodyFailed: Error, Equatable {}

    private static func client(_ session: FaultlineSession?) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 10
        session?.configure(configuration)
        return URLSession(configuration: configuration)
    }

    private static func status(_ client: URLSession, _ url: URL) async throws -> Int {
        let (_, response) = try await client.data(from: url)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }

    /// The commonest mistake: requests sent without the session's header. Waiting for them
    /// in the session says how many arrived outside every session, and what to call.
    @Test func waitingForRequestsSentOutsideTheSessionSaysSo() async throws {
        let faultline = try await Launching.faultline()
        defer { faultline.stop() }
        let url = faultline.proxyURL.appendingPathComponent("json")
        try await faultline.session("forgot configure") { session in
            for _ in 0..<3 { #expect(try await Self.status(Self.client(nil), url) == 200) }
            _ = try await faultline.requests(matching: RequestFilter(path: "/json"))
            let error = await #expect(throws: FaultlineError.self) {
                _ = try await session.waitForRequests(3, path: "/json", timeout: .seconds(2))
            }
            guard case .requestsShort(_, let wanted, let inSession, let outside, _)? = error else {
                Issue.record("expected requestsShort, got \(String(describing: error))")
                return
            }
            #expect(wanted == 3 && inSession == 0 && outside == 3)
            #expect(error?.description.contains("0 in the session, 3 outside sessions: did you call session.configure(_:)") == true,
                    "\(String(describing: error))")
        }
    }

    @Test func retrySequenceIsJournaledWithCountsAndGaps() async throws {
        let faultline = try await Launching.faultline()
        defer { faultline.stop() }
        let url = faultline.proxyURL.appendingPathComponent("json")
        try await faultline.session("retry") { session in
            let name = try await session.add(.path("/json").fault(.status(503, retryAfter: 1).named("outage").sequence([503, 503, .pass])))
            #expect(name == "rule-1")
            let client = Self.client(session)
            var statuses: [Int] = []
            for _ in 0..<3 { statuses.append(try await Self.status(client, url)) }
            #expect(statuses == [503, 503, 200])
            // Outside the session the rule does not apply.
            #expect(try await Self.status(Self.client(nil), url) == 200)
            let recorded = try await session.waitForRequests(3, path: "/json", timeout: .seconds(30))
            #expect(recorded.map(\.status) == [503, 503, 200])
            #expect(recorded.map(\.faults) == [["\(name)/outage"], ["\(name)/outage"], []])
            #expect(recorded.allSatisfy { $0.session == session.id && $0.route == name })
            #expect(try await session.count(path: "/json") == 3)
            #expect(try await session.count(path: "/json", status: 503) == 2)
            #expect(try await session.count(path: "/nothing") == 0)
            let gaps = try await session.gaps(path: "/json")
            #expect(gaps.count == 2)
            #expect(gaps.allSatisfy { $0 >= .zero })
            #expect(try await session.requests(matching: RequestFilter(limit: 1)).map(\.seq) == [recorded[2].seq])
            try await session.resetCounters()
            #expect(try await Self.status(client, url) == 503)
        }
    }

    @Test func bodyThrowingEndsTheSessionAndRethrows() async throws {
        let faultline = try await Launching.faultline()
        defer { faultline.stop() }
        let ended = Locked<FaultlineSession?>(nil)
        await #expect(throws: BodyFailed.self) {
            try await faultline.session { session in
                ended.withLock { $0 = session }
                try await session.add(.any.fault(.status(500)))
                #expect(try await Self.status(Self.client(session), faultline.proxyURL) == 500)
                throw BodyFailed()
            }
        }
        let session = try #require(ended.withLock { $0 })
        let answer = try await faultline.admin.send("GET", ["sessions", session.id])
        #expect(answer.status == 404)
        // The header of an ended session is stripped and the request runs without its rules.
        #expect(try await Self.status(Self.client(session), faultline.proxyURL) == 200)
        await #expect(throws: FaultlineError.self) { try await session.add(.any) }
    }

    @Test func cancellingTheBodyEndsTheSession() async throws {
        let faultline = try await Launching.faultline()
        defer { faultline.stop() }
        let started = Locked<String?>(nil)
        let task = Task {
            try await faultline.session { session in
                started.withLock { $0 = session.id }
                try await Task.sleep(for: .seconds(30))
            }
        }
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(60)
        while started.withLock({ $0 }) == nil && clock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
        let id = try #require(started.withLock { $0 })
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try await faultline.admin.send("GET", ["sessions", id]).status == 404)
    }

    @Test func sessionsDoNotSeeEachOther() async throws {
        let faultline = try await Launching.faultline()
        defer { faultline.stop() }
        let url = faultline.proxyURL.appendingPathComponent("json")
        async let first: [Int] = faultline.session("a") { session in
            try await session.add(.path("/json").fault(.status(503)))
            let client = Self.client(session)
            var statuses: [Int] = []
            for _ in 0..<3 { statuses.append(try await Self.status(client, url)) }
            _ = try await session.waitForRequests(3, timeout: .seconds(30))
            #expect(try await session.count() == 3)
            return statuses
        }
        async let second: [Int] = faultline.session("b") { session in
            try await session.add(.path("/json").fault(.status(429).firstN(1)))
            let client = Self.client(session)
            var statuses: [Int] = []
            for _ in 0..<3 { statuses.append(try await Self.status(client, url)) }
            _ = try await session.waitForRequests(3, timeout: .seconds(30))
            #expect(try await session.count() == 3)
            return statuses
        }
        #expect(try await first == [503, 503, 503])
        #expect(try await second == [429, 200, 200])
    }

    @Test func refusedSessionRuleNamesTheField() async throws {
        let faultline = try await Launching.faultline()
        defer { faultline.stop() }
        try await faultline.session { session in
            do {
                try await session.add(.path("/x").fault(.delay(ms: 1).probability(1.5)))
                Issue.record("a probability of 1.5 was accepted")
            } catch FaultlineError.refused(let status, _, let field) {
                #expect(status == 400)
                #expect(field?.hasSuffix("faults[0].when.probability") == true)
            }
        }
    }
}

/// Session options: name, TTL, seed and client addresses reach the proxy.
@Suite("Session options", .timeLimit(.minutes(2)))
struct SessionOptionTests {
    @Test func optionsAndClientAddresses() async throws {
        let faultline = try await Launching.faultline()
        defer { faultline.stop() }
        let session = try await faultline.startSession("device", ttl: .seconds(30), seed: 42, clients: ["127.0.0.2"])
        #expect(session.name == "device")
        #expect(session.seed == 42)
        #expect(session.id.range(of: "^[a-z0-9]{16,32}$", options: .regularExpression) != nil)
        try await session.add(.any.fault(.status(418)).named("teapot"))
        let url = faultline.proxyURL.absoluteString
        let fromDevice = try await Curl.run(["--interface", "127.0.0.2", "-o", "/dev/null", "-w", "%{http_code}", url])
        let fromElsewhere = try await Curl.run(["-o", "/dev/null", "-w", "%{http_code}", url])
        #expect(fromDevice.text == "418")
        #expect(fromElsewhere.text == "200")
        #expect(try await session.waitForRequests(1, timeout: .seconds(30)).map(\.route) == ["teapot"])
        try await session.remove(rule: "teapot")
        #expect(try await Curl.run(["--interface", "127.0.0.2", "-o", "/dev/null", "-w", "%{http_code}", url]).text == "200")
        try await session.end()
        try await session.end()
        await #expect(throws: FaultlineError.self) { try await session.count() }
    }

    @Test func globalJournalSeesEveryExchange() async throws {
        let faultline = try await Launching.faultline()
        defer { faultline.stop() }
        _ = try await Curl.run(["-o", "/dev/null", faultline.proxyURL.appendingPathComponent("json").absoluteString])
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(30)
        var found: [RecordedRequest] = []
        while found.isEmpty && clock.now < deadline {
            found = try await faultline.requests(matching: RequestFilter(path: "/json"))
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(found.map(\.status) == [200])
        #expect(found.first?.session == nil)
    }
}
