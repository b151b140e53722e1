import FaultlineTesting
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

@Suite(.timeLimit(.minutes(3)))
struct EventStreamResumeTests {
    @Test func streamCutByAResetResumesWithLastEventID() async throws {
        let faultline = try await SharedFaultline.launched.value
        try await faultline.session("SSE cut and resumed") { session in
            // The first connection is reset after 60 bytes of body: two or three events in.
            try await session.add(.path("/sse/8").named("events").fault(.reset(afterBytes: 60).firstN(1)))
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = 10
            session.configure(configuration)
            let client = EventStreamClient(configuration: configuration)

            let url = try #require(URL(string: "sse/8?interval_ms=50", relativeTo: faultline.proxyURL))
            let (events, lastEventIDs) = try await client.events(from: url)

            // Every event exactly once, in order.
            #expect(events.map(\.id) == (0..<8).map { String($0) })
            #expect(events.map(\.data) == (0..<8).map { "{\"n\": \($0)}" })
            // Two connections: a fresh one, then one resuming after an event it had received.
            #expect(lastEventIDs.count == 2)
            #expect(lastEventIDs.first == .some(nil))
            #expect(lastEventIDs.last.flatMap { $0 }.flatMap(Int.init).map { (0..<7).contains($0) } == true, "\(lastEventIDs)")
            let journal = try await session.waitForRequests(2, path: "/sse/8")
            #expect(journal.count == 2)
            // Fired faults are named "rule/fault".
            #expect(journal.first?.faults == ["events/reset"])
            #expect(journal.last?.faults == [])
        }
    }

    @Test func parserKeepsOnlyWholeEvents() {
        var parser = EventStreamParser()
        parser.feed(Data("id: 0\ndata: {\"n\": 0}\n\n: comment\nid: 1\r\ndata: a\ndata: b\n\nid: 2\ndata: {\"n\"".utf8))
        #expect(parser.events == [ServerSentEvent(id: "0", data: "{\"n\": 0}"), ServerSentEvent(id: "1", data: "a\nb")])
        #expect(parser.lastEventID == "1")
        parser.connectionBroke()
        parser.feed(Data("id: 2\ndata: two\n\n".utf8))
        #expect(parser.events.last == ServerSentEvent(id: "2", data: "two"))
        #expect(parser.lastEventID == "2")
    }
}
