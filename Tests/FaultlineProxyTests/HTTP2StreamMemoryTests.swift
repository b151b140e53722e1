import Testing
@testable import FaultlineProxy
import FaultlineHTTP
import FaultlineMemoryIO

/// `HTTP2Stream` and its `HTTP2Connection`, the HTTP/2 host, on the in-memory network over
/// h2c (prior knowledge, a client-role `HTTP2Session` in the test): every fault kind's frames
/// on the stream, with the loop's clock moved by hand for the faults that take time.
@Suite("HTTP/2 host on the in-memory network")
struct HTTP2StreamMemoryTests {
    let harness: MemoryHarness
    var origin: MemoryOrigin { harness.origin }

    init() throws {
        harness = try MemoryHarness(configJSON: MemoryFaultRoutes.config())
    }

    /// One GET on a fresh h2c connection.
    func get(_ path: String, limitMilliseconds: Int = 60_000) throws -> MemoryH2Client.Outcome {
        try MemoryH2Client(harness).get(path, limitMilliseconds: limitMilliseconds)
    }

    @Test func aRequestIsRelayedAsHeadersAndData() throws {
        let outcome = try get("/plain/bytes/10")
        #expect(outcome.status == 200 && outcome.ended, "\(outcome)")
        #expect(outcome.body == Array(repeating: UInt8(ascii: "x"), count: 10))
        #expect(origin.targets == ["/plain/bytes/10"])
    }

    @Test func aStatusFaultIsAnsweredOnTheStream() throws {
        let outcome = try get("/st503/json")
        #expect(outcome.status == 503 && outcome.ended && outcome.body == Array("down".utf8), "\(outcome)")
        #expect(outcome.fields["retry-after"] == "5" && outcome.fields["x-faultline-fault"] == "st503/status")
        #expect(outcome.fields["content-type"] == "text/html")
        let noContent = try get("/st204/json")
        #expect(noContent.status == 204 && noContent.body.isEmpty && noContent.fields["content-length"] == nil, "\(noContent)")
        #expect(origin.connections == 0, "a status fault never contacts the origin")
    }

    /// Resets act on the stream only: RST_STREAM with the fault's code, before or after part
    /// of the body; `close` and a hang that closes are CANCEL; `rst_stream` is REFUSED_STREAM.
    @Test func resetsAndClosesResetTheStream() throws {
        let reset = try get("/reset/json")
        #expect(reset.status == nil && reset.resetReceived == .internalError && !reset.connectionClosed, "\(reset)")
        let partial = try get("/reset1k/bytes/5000")
        #expect(partial.status == 200 && partial.body.count == 1000 && partial.resetReceived == .internalError, "\(partial)")
        let closed = try get("/close/json")
        #expect(closed.status == nil && closed.resetReceived == .cancel, "\(closed)")
        let refused = try get("/rst/json")
        #expect(refused.status == nil && refused.resetReceived == .refusedStream, "\(refused)")
    }

    /// A hang sends nothing on the stream for its time, then cancels it (`close`) or resets
    /// it with the reset code (`reset`).
    @Test func aHangEndsTheStreamAfterItsTime() throws {
        let closed = try get("/hangclose/json")
        #expect(closed.status == nil && closed.resetReceived == .cancel, "\(closed)")
        let reset = try get("/hangreset/json")
        #expect(reset.status == nil && reset.resetReceived != nil && reset.resetReceived != .cancel, "\(reset)")
        let early = try get("/hangclose/json", limitMilliseconds: 40)
        #expect(early.status == nil && early.resetReceived == nil, "nothing before 50 ms: \(early)")
    }

    /// `close` and `truncate` mid-body end the stream short of its content-length, which the
    /// client must treat as malformed (it resets the stream itself).
    @Test func cutsEndTheStreamShortOfItsLength() throws {
        for path in ["/close1k/bytes/5000", "/truncate/bytes/5000"] {
            let outcome = try get(path)
            #expect(outcome.status == 200 && outcome.fields["content-length"] == "5000", "\(path): \(outcome)")
            #expect(outcome.resetSent == .protocolError, "\(path): \(outcome)")
        }
    }

    @Test func delayThrottleProfileAndRewriteDeliverTheResponse() throws {
        for path in ["/delay/bytes/3000", "/delay200/bytes/3000", "/throttle/bytes/3000", "/slow3g/bytes/3000"] {
            let outcome = try get(path)
            #expect(outcome.status == 200 && outcome.ended && outcome.body.count == 3000, "\(path): \(outcome)")
        }
        let early = try get("/delay200/json", limitMilliseconds: 150)
        #expect(early.status == nil, "nothing before 200 ms: \(early)")
        let rewritten = try get("/rewrite/json")
        #expect(rewritten.status == 418 && rewritten.fields["x-rewritten"] == "yes" && rewritten.ended, "\(rewritten)")
    }

    @Test func aLosingProfileAnswersNothingOnTheStream() throws {
        let lost = try get("/lost/json", limitMilliseconds: 5_000)
        #expect(lost.status == nil && lost.resetReceived == nil && !lost.connectionClosed, "\(lost)")
    }

    @Test func corruptRepliesAreMalformedOnTheStreamOnly() throws {
        let garbage = try get("/garbage/json")
        #expect(garbage.status == nil && garbage.resetSent == .protocolError, "\(garbage)")
        let chunked = try get("/chunked/json")
        #expect(chunked.status == 200 && chunked.body == Array(#"{"ok":"#.utf8) && chunked.resetReceived == .protocolError,
                "\(chunked)")
        let json = try get("/json/json")
        #expect(json.status == 200 && json.body.first == UInt8(ascii: "<") && json.ended, "\(json)")
    }

    /// An immediate goaway ends the connection with GOAWAY and its code; a graceful one lets
    /// the stream complete under a GOAWAY NO_ERROR.
    @Test func goAwaysActOnTheConnection() throws {
        let immediate = try get("/goaway/json")
        #expect(immediate.status == nil && immediate.goAway?.code == .internalError, "\(immediate)")
        let graceful = try get("/graceful/json")
        #expect(graceful.status == 200 && graceful.ended && graceful.goAway?.code == .noError, "\(graceful)")
    }

    @Test func anUnreachableUpstreamIsALocal502() throws {
        let outcome = try get("/down/json")
        #expect(outcome.status == 502 && outcome.fields["server"] == "faultline" && outcome.ended, "\(outcome)")
    }

    /// Streams of one client connection share the loop's pool: the second reuses the origin
    /// connection the first left clean, and a stream reset by a fault leaves the others alone.
    @Test func streamsShareThePoolAndSurviveAResetNeighbour() throws {
        let client = try MemoryH2Client(harness)
        let first = try client.get("/plain/bytes/10")
        let reset = try client.get("/reset/json")
        let second = try client.get("/plain/bytes/20")
        #expect(first.status == 200 && reset.resetReceived == .internalError && second.status == 200, "\(first) / \(reset) / \(second)")
        #expect(second.body.count == 20 && !second.connectionClosed)
        #expect(origin.connections == 1, "the second stream went on the pooled connection")
    }
}

/// `HTTP2Connection` itself on the in-memory network: streams multiplexed on the loop's
/// clock, and the idle deadline.
@Suite("HTTP/2 client connection on the in-memory network")
struct HTTP2ConnectionMemoryTests {
    /// A delayed stream does not hold a quick one back: the quick one ends first.
    @Test func aDelayedStreamDoesNotHoldAnotherBack() throws {
        let harness = try MemoryHarness(configJSON: MemoryFaultRoutes.config())
        let client = try MemoryH2Client(harness)
        let slow = try client.submit("/delay200/bytes/10")
        let quick = try client.submit("/plain/bytes/20")
        var outcomes = [slow: MemoryH2Client.Outcome(), quick: MemoryH2Client.Outcome()]
        harness.network.advance(byMilliseconds: 100)
        client.take(into: &outcomes)
        #expect(outcomes[quick]?.ended == true && outcomes[quick]?.body.count == 20, "\(String(describing: outcomes[quick]))")
        #expect(outcomes[slow]?.status == nil, "the delayed stream waits its 200 ms")
        harness.settle { client.take(into: &outcomes); return outcomes[slow]?.ended == true }
        #expect(outcomes[slow]?.status == 200 && outcomes[slow]?.body.count == 10)
        #expect(harness.origin.connections == 1, "both streams' upstream exchanges used one pooled connection in turn")
    }

    /// A connection without streams ends after the client idle timeout on the loop's clock,
    /// with GOAWAY NO_ERROR, and not before.
    @Test func anIdleConnectionEndsWithGoAwayAfterItsTimeout() throws {
        let harness = try MemoryHarness(configJSON: MemoryFaultRoutes.config()
            .replacingOccurrences(of: #""log": {"off": true}"#, with: #""log": {"off": true}, "timeouts_ms": {"client_idle": 2000}"#))
        let client = try MemoryH2Client(harness)
        _ = try client.get("/plain/json")
        var outcomes: [Int32: MemoryH2Client.Outcome] = [0: MemoryH2Client.Outcome()]
        harness.network.advance(byMilliseconds: 1_800)
        client.take(into: &outcomes)
        #expect(outcomes[0]?.goAway == nil && client.end.peerEnd == .open, "still open at 1.8 s")
        harness.network.advance(byMilliseconds: 400)
        client.take(into: &outcomes)
        #expect(outcomes[0]?.goAway?.code == .noError, "\(String(describing: outcomes[0]))")
        #expect(client.end.peerEnd == .finished)
    }
}
