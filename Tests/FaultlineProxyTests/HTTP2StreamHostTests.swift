import Foundation
import Testing
@testable import FaultlineProxy
import FaultlineHTTP
import FaultlineTestSupport

/// `HTTP2Stream`, the HTTP/2 host of one exchange, driven through the host harness over h2c
/// (prior knowledge, a client-role `HTTP2Session` in the test): every fault kind's frames on
/// the stream, the same routes as the HTTP/1 host's, and the pool behind HTTP/2 streams.
@Suite("HTTP/2 host through the harness", .serialized, .timeLimit(.minutes(2)))
struct HTTP2StreamHostTests {
    static let shared = Result { () throws -> (TinyOrigin, HostHarness) in
        let origin = try TinyOrigin()
        return (origin, try HostHarness(configJSON: DownstreamConnectionHostTests.config(originPort: origin.port)))
    }

    let origin: TinyOrigin
    let harness: HostHarness

    init() throws {
        (origin, harness) = try Self.shared.get()
    }

    /// One GET on a fresh h2c connection.
    func get(_ path: String) throws -> H2HarnessClient.Outcome {
        let raw = try harness.connect(h2c: true, readTimeout: .milliseconds(200))
        defer { raw.close() }
        return try H2HarnessClient(raw).get(path)
    }

    @Test func aRequestIsRelayedAsHeadersAndData() throws {
        let outcome = try get("/plain/bytes/10")
        #expect(outcome.status == 200 && outcome.ended, "\(outcome)")
        #expect(outcome.body == Array(repeating: UInt8(ascii: "x"), count: 10))
    }

    @Test func aStatusFaultIsAnsweredOnTheStream() throws {
        let before = origin.connections
        let outcome = try get("/st503/json")
        #expect(outcome.status == 503 && outcome.ended, "\(outcome)")
        #expect(outcome.body == Array("down".utf8))
        #expect(outcome.fields["retry-after"] == "5" && outcome.fields["x-faultline-fault"] == "st503/status")
        #expect(outcome.fields["content-type"] == "text/html")
        #expect(origin.connections == before, "a status fault never contacts the origin")
        let noContent = try get("/st204/json")
        #expect(noContent.status == 204 && noContent.body.isEmpty && noContent.fields["content-length"] == nil, "\(noContent)")
    }

    /// Resets act on the stream only: RST_STREAM with the fault's code, before or after part
    /// of the body; `close` before a response is CANCEL.
    @Test func resetsAndClosesResetTheStream() throws {
        let reset = try get("/reset/json")
        #expect(reset.status == nil && reset.resetReceived == .internalError, "\(reset)")
        let partial = try get("/reset1k/bytes/5000")
        #expect(partial.status == 200 && partial.body.count == 1000 && partial.resetReceived == .internalError, "\(partial)")
        let closed = try get("/close/json")
        #expect(closed.status == nil && closed.resetReceived == .cancel, "\(closed)")
        let hung = try get("/hangclose/json")
        #expect(hung.status == nil && hung.resetReceived == .cancel, "\(hung)")
        let refused = try get("/rst/json")
        #expect(refused.status == nil && refused.resetReceived == .refusedStream, "\(refused)")
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

    @Test func delayThrottleAndRewriteDeliverTheResponse() throws {
        for path in ["/delay/bytes/3000", "/throttle/bytes/3000"] {
            let outcome = try get(path)
            #expect(outcome.status == 200 && outcome.ended && outcome.body.count == 3000, "\(path): \(outcome)")
        }
        let rewritten = try get("/rewrite/json")
        #expect(rewritten.status == 418 && rewritten.fields["x-rewritten"] == "yes" && rewritten.ended, "\(rewritten)")
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
    /// connection the first left clean.
    @Test func streamsReuseAPooledOriginConnection() throws {
        let raw = try harness.connect(h2c: true, readTimeout: .milliseconds(200))
        defer { raw.close() }
        let client = try H2HarnessClient(raw)
        let base = origin.connections
        let first = try client.get("/plain/bytes/10")
        let second = try client.get("/plain/bytes/20")
        #expect(first.status == 200 && second.status == 200 && second.body.count == 20, "\(first) / \(second)")
        #expect(origin.connections - base <= 1, "the second stream went on the pooled connection")
    }
}
