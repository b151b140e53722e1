import Foundation
import Testing
@testable import FaultlineProxy
import FaultlineMemoryIO
import FaultlineTestSupport

/// `DownstreamConnection`, the HTTP/1 host, on the in-memory network: request bytes in, the
/// exact response bytes and how the connection ended (FIN or RST) out, for every fault
/// kind, with the loop's clock moved by hand for the faults that take time. No kernel
/// socket, no thread: each test has its own harness.
@Suite("HTTP/1 host on the in-memory network")
struct DownstreamConnectionMemoryTests {
    let harness: MemoryHarness
    var origin: MemoryOrigin { harness.origin }

    init() throws {
        harness = try MemoryHarness(configJSON: MemoryFaultRoutes.config())
    }

    struct Answer {
        var bytes: [UInt8]
        var end: MemoryEndpointEnd
        /// The bytes without the (random) request id line.
        var text: String {
            String(decoding: bytes, as: UTF8.self)
                .replacingOccurrences(of: #"X-Request-ID: [0-9a-f]+\r\n"#, with: "", options: .regularExpression)
        }
        /// The bytes after the head.
        var body: [UInt8] {
            guard let split = bytes.firstRange(of: Array("\r\n\r\n".utf8)) else { return [] }
            return Array(bytes[split.upperBound...])
        }
    }

    /// One request on a fresh connection; everything the client got until the host ended
    /// its side (or `limitMilliseconds` of loop time passed).
    func exchange(_ path: String, closing: Bool = true, limitMilliseconds: Int = 60_000) -> Answer {
        let client = harness.connect()
        client.send("GET \(path) HTTP/1.1\r\nHost: api.example\r\n\(closing ? "Connection: close\r\n" : "")\r\n")
        var bytes: [UInt8] = []
        harness.settle(limitMilliseconds: limitMilliseconds) {
            bytes += client.receive()
            return client.peerEnd != .open
        }
        return Answer(bytes: bytes + client.receive(), end: client.peerEnd)
    }

    @Test func aRequestIsRelayedWithTheOriginsBody() {
        let answer = exchange("/plain/bytes/10")
        #expect(answer.text.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(answer.text.hasSuffix("\r\n\r\nxxxxxxxxxx"))
        #expect(answer.end == .finished)
        #expect(origin.targets == ["/plain/bytes/10"])
    }

    @Test func aStatusFaultIsAnsweredWithoutTheOrigin() {
        let answer = exchange("/st503/json")
        #expect(answer.text == "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/html\r\nContent-Length: 4\r\n"
                + "Retry-After: 5\r\nX-Faultline-Fault: st503/status\r\nConnection: close\r\n\r\ndown", "\(answer.text)")
        #expect(answer.end == .finished)
        let noContent = exchange("/st204/json")
        #expect(noContent.text.hasPrefix("HTTP/1.1 204 No Content\r\n") && !noContent.text.contains("Content-Length"))
        #expect(origin.connections == 0, "a status fault never contacts the origin")
    }

    /// `reset` ends the connection with RST, `close` with FIN; before any response byte or
    /// after exactly `after_bytes` of the body. `rst_stream` and an immediate `goaway` are
    /// HTTP/2 faults: on HTTP/1 they drop the connection without a response.
    @Test func resetAndCloseEndTheConnectionWithNothingOrPartOfTheBody() {
        for (path, end) in [("/reset/json", MemoryEndpointEnd.reset), ("/close/json", .finished),
                            ("/rst/json", .reset), ("/goaway/json", .finished)] {
            let answer = exchange(path)
            #expect(answer.bytes.isEmpty && answer.end == end, "\(path): \(answer.end) \(answer.text)")
        }
        for (path, end) in [("/reset1k/bytes/5000", MemoryEndpointEnd.reset), ("/close1k/bytes/5000", .finished)] {
            let answer = exchange(path)
            #expect(answer.text.hasPrefix("HTTP/1.1 200 OK\r\n") && answer.end == end, "\(path): \(answer.end)")
            #expect(answer.text.contains("Content-Length: 5000\r\n"), "\(path)")
            #expect(answer.body.count == 1000, "\(path): \(answer.body.count) body bytes")
        }
    }

    @Test func truncateKeepsItsBytes() {
        let truncated = exchange("/truncate/bytes/5000")
        #expect(truncated.text.hasPrefix("HTTP/1.1 200 OK\r\n") && truncated.end == .finished)
        #expect(truncated.body == Array(repeating: UInt8(ascii: "x"), count: 100))
    }

    /// A hang sends nothing for exactly its time on the loop's clock, then closes or resets.
    @Test func aHangEndsAfterItsTimeWithCloseOrReset() {
        for (path, end) in [("/hangclose/json", MemoryEndpointEnd.finished), ("/hangreset/json", .reset)] {
            let client = harness.connect()
            client.send("GET \(path) HTTP/1.1\r\nHost: api.example\r\n\r\n")
            harness.network.advance(byMilliseconds: 45)
            #expect(client.receive().isEmpty && client.peerEnd == .open, "\(path) still hangs at 45 ms")
            harness.network.advance(byMilliseconds: 10)
            #expect(client.receive().isEmpty && client.peerEnd == end, "\(path) ended at 55 ms: \(client.peerEnd)")
        }
    }

    /// A delay holds the response back for its time on the loop's clock, then delivers it whole.
    @Test func aDelayHoldsTheResponseForItsTime() {
        let client = harness.connect()
        client.send("GET /delay200/bytes/3000 HTTP/1.1\r\nHost: api.example\r\n\r\n")
        harness.network.advance(byMilliseconds: 150)
        #expect(client.receive().isEmpty, "nothing before 200 ms")
        var bytes: [UInt8] = []
        harness.settle { bytes += client.receive(); return bytes.count >= 3000 }
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n") && text.hasSuffix(String(repeating: "x", count: 3000)), "\(text.prefix(100))")
    }

    /// A throttle paces the body on the loop's clock: 3,000 bytes at 200,000 B/s take more
    /// than one turn; a 3g profile adds its latency. Both deliver the whole response.
    @Test func throttleAndProfileDeliverTheWholeResponseOverTime() {
        for path in ["/throttle/bytes/3000", "/slow3g/bytes/3000", "/delay/bytes/3000"] {
            let answer = exchange(path)
            #expect(answer.text.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(path)")
            #expect(answer.body == Array(repeating: UInt8(ascii: "x"), count: 3000), "\(path): \(answer.body.count)")
        }
        let client = harness.connect()
        client.send("GET /slow3g/json HTTP/1.1\r\nHost: api.example\r\n\r\n")
        harness.network.advance(byMilliseconds: 90)
        #expect(client.receive().isEmpty, "a 3g profile's latency holds the response back")
        // 30,000 bytes at 200,000 B/s: not at once, all of it within 150 ms and a little.
        let paced = harness.connect()
        paced.send("GET /throttle/bytes/30000 HTTP/1.1\r\nHost: api.example\r\n\r\n")
        harness.network.run()
        var bytes = paced.receive()
        #expect(bytes.count < 30_000, "a throttle does not send the body at once: \(bytes.count)")
        harness.network.advance(byMilliseconds: 200)
        bytes += paced.receive()
        #expect(bytes.count > 30_000 && bytes.suffix(30_000).allSatisfy { $0 == UInt8(ascii: "x") }, "\(bytes.count)")
    }

    /// A profile that loses everything answers nothing and keeps the connection open: the
    /// client gives up first.
    @Test func aLosingProfileAnswersNothing() {
        let answer = exchange("/lost/json", limitMilliseconds: 5_000)
        #expect(answer.bytes.isEmpty && answer.end == .open)
    }

    @Test func rewriteChangesTheRelayedHead() {
        let answer = exchange("/rewrite/json")
        #expect(answer.text.hasPrefix("HTTP/1.1 418 "), "\(answer.text)")
        #expect(answer.text.contains("\r\nX-Rewritten: yes\r\n"))
        #expect(answer.text.hasSuffix(#"{"ok":true}"#))
    }

    @Test func corruptRepliesAreNotHTTPOrBreakTheirFraming() {
        let garbage = exchange("/garbage/json")
        #expect(garbage.bytes == OwnResponse.garbage.body && garbage.end == .finished)
        let chunked = exchange("/chunked/json")
        #expect(chunked.text == "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
                + "X-Faultline-Fault: chunked/corrupt\r\n\r\n6\r\n{\"ok\":\r\nzz-not-a-chunk-size\r\n", "\(chunked.text)")
        let json = exchange("/json/json")
        #expect(json.text.hasPrefix("HTTP/1.1 200 OK\r\n") && json.text.hasSuffix(#"<"ok":true}"#), "\(json.text)")
    }

    @Test func aGracefulGoAwayAnswersAndCloses() {
        let answer = exchange("/graceful/json", closing: false)
        #expect(answer.text.hasPrefix("HTTP/1.1 200 OK\r\n") && answer.text.contains("\r\nConnection: close\r\n"), "\(answer.text)")
        #expect(answer.end == .finished)
    }

    @Test func anUnreachableUpstreamIsALocal502() {
        let answer = exchange("/down/json")
        #expect(answer.text.hasPrefix("HTTP/1.1 502 Bad Gateway\r\n"), "\(answer.text)")
        #expect(answer.text.contains("\r\nServer: faultline\r\n"))
    }

    /// Pipelined requests in one write are answered in order on one connection.
    @Test func pipelinedRequestsAreAnsweredInOrder() {
        let client = harness.connect()
        client.send("GET /plain/bytes/3 HTTP/1.1\r\nHost: a\r\n\r\nGET /st503/x HTTP/1.1\r\nHost: a\r\n\r\n"
                    + "GET /plain/bytes/5 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        var bytes: [UInt8] = []
        harness.settle { bytes += client.receive(); return client.peerEnd != .open }
        let responses = HTTPResponseParser.parse(bytes + client.receive(), closed: true)
        #expect(responses.map(\.status) == [200, 503, 200])
        #expect(responses.map(\.body.count) == [3, 4, 5])
    }

    /// A client that goes quiet mid-head is answered 408 once the header timeout passes on
    /// the loop's clock (the context's deadline sweep runs on it too).
    @Test func aSilentClientTimesOut() {
        let client = harness.connect()
        client.send("GET /plain/json HTTP/1.1\r\nHost: a")
        var bytes: [UInt8] = []
        let ended = harness.settle(stepMilliseconds: 100, limitMilliseconds: 120_000) {
            bytes += client.receive()
            return client.peerEnd != .open
        }
        #expect(ended)
        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("HTTP/1.1 408 "), "\(String(decoding: bytes, as: UTF8.self))")
    }
}
