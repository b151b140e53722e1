import Testing
@testable import FaultlineProxy
import FaultlineMemoryIO
import FaultlineTestSupport

/// The upstream legs and the loop's pool on the in-memory network, seen from the origin's
/// side: which connections it got, which the proxy ended. Reuse after a clean exchange only;
/// never after a cut, a failed or an abandoned exchange; idle limits in time and in count on
/// the loop's clock; an idle connection the origin closed is dropped, not used.
@Suite("Upstream pool on the in-memory network")
struct UpstreamPoolMemoryTests {
    /// A harness whose origin keeps at most `maxIdle` idle connections for `idleMs`.
    static func harness(maxIdle: Int = 32, idleMs: Int = 60_000, h2c: Bool = false) throws -> MemoryHarness {
        let options = #""max_idle_connections": \#(maxIdle), "timeouts_ms": {"idle": \#(idleMs)}"#
            + (h2c ? #", "protocol": "h2c""# : "")
        return try MemoryHarness(configJSON: MemoryFaultRoutes.config(upstreamOptions: options), originH2C: h2c)
    }

    /// Sends `GET path` on `client` and returns the response once complete.
    static func get(_ path: String, on client: MemoryEndpoint, _ harness: MemoryHarness, closing: Bool = false) -> ParsedResponse? {
        client.send("GET \(path) HTTP/1.1\r\nHost: api.example\r\n\(closing ? "Connection: close\r\n" : "")\r\n")
        var bytes: [UInt8] = []
        var response: ParsedResponse?
        harness.settle {
            bytes += client.receive()
            response = HTTPResponseParser.parse(bytes, closed: client.peerEnd != .open).first
            return response != nil || client.peerEnd != .open
        }
        return response
    }

    /// A keep-alive request on a new client connection that reaches the origin, which holds
    /// its answer back; returns the client's end.
    static func requestTheOriginHolds(_ harness: MemoryHarness) -> MemoryEndpoint {
        harness.origin.holding = true
        let client = harness.connect()
        client.send("GET /plain/bytes/10 HTTP/1.1\r\nHost: api.example\r\n\r\n")
        harness.network.run()
        return client
    }

    /// One request on a new client connection, to its end.
    static func exchange(_ path: String, _ harness: MemoryHarness) -> [UInt8] {
        let client = harness.connect()
        client.send("GET \(path) HTTP/1.1\r\nHost: api.example\r\nConnection: close\r\n\r\n")
        var bytes: [UInt8] = []
        harness.settle { bytes += client.receive(); return client.peerEnd != .open }
        return bytes + client.receive()
    }

    @Test func aCleanConnectionIsReusedByTheNextRequestAndTheNextClient() throws {
        let harness = try Self.harness()
        let client = harness.connect()
        #expect(Self.get("/plain/bytes/10", on: client, harness)?.body.count == 10)
        #expect(Self.get("/plain/bytes/20", on: client, harness)?.body.count == 20)
        #expect(Self.exchange("/plain/json", harness).count > 0)
        #expect(harness.origin.connections == 1, "three exchanges, one origin connection")
        #expect(harness.origin.openConnections == 1)
    }

    /// A response cut by a fault (close or reset after bytes, truncate) leaves its upstream
    /// connection closed, never pooled: the next request opens a new one.
    @Test func aCutExchangeIsNeverPooled() throws {
        for path in ["/close1k/bytes/5000", "/reset1k/bytes/5000", "/truncate/bytes/5000"] {
            let harness = try Self.harness()
            _ = Self.exchange(path, harness)
            #expect(harness.origin.connections == 1 && harness.origin.openConnections == 0, "\(path): the cut connection closed")
            _ = Self.exchange("/plain/json", harness)
            #expect(harness.origin.connections == 2, "\(path): the next request did not get the cut connection")
        }
    }

    /// A client that leaves while the origin still owes the response abandons the exchange:
    /// the upstream connection, with a response in flight, closes.
    @Test func anAbandonedExchangeIsNeverPooled() throws {
        let harness = try Self.harness()
        let client = Self.requestTheOriginHolds(harness)
        #expect(harness.origin.targets == ["/plain/bytes/10"])
        client.reset()
        harness.network.run()
        #expect(harness.origin.openConnections == 0, "the abandoned upstream connection closed")
        harness.origin.release()
        harness.network.run()
        _ = Self.exchange("/plain/json", harness)
        #expect(harness.origin.connections == 2)
    }

    /// An upstream connection that ends mid-response fails its exchange (the client's
    /// response is cut) and is not reused.
    @Test func anOriginResetMidResponseIsNeverPooled() throws {
        let harness = try Self.harness()
        let client = Self.requestTheOriginHolds(harness)
        let upstream = try #require(harness.origin.accepted.first)
        upstream.send("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nxxxx")
        // Read before the reset: a reset drops what the reader has not taken (as in the kernel).
        harness.network.run()
        upstream.reset()
        var bytes: [UInt8] = []
        harness.settle { bytes += client.receive(); return client.peerEnd != .open }
        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(client.peerEnd != .open, "the client's response was cut")
        harness.origin.holding = false
        _ = Self.exchange("/plain/json", harness)
        #expect(harness.origin.connections == 2)
    }

    /// An idle connection waits `timeouts_ms.idle` on the loop's clock (the sweep is coarse,
    /// 100 ms), then closes.
    @Test func anIdleConnectionClosesWhenItsTimeIsUp() throws {
        let harness = try Self.harness(idleMs: 500)
        _ = Self.exchange("/plain/json", harness)
        harness.network.advance(byMilliseconds: 400)
        #expect(harness.origin.openConnections == 1, "still pooled at 400 ms")
        harness.network.advance(byMilliseconds: 250)
        #expect(harness.origin.openConnections == 0, "closed once 500 ms had passed")
        _ = Self.exchange("/plain/json", harness)
        #expect(harness.origin.connections == 2)
    }

    /// The pool keeps at most `max_idle_connections` per upstream and loop: of two
    /// connections freed together, one stays and one closes.
    @Test func thePoolKeepsAtMostMaxIdleConnections() throws {
        let harness = try Self.harness(maxIdle: 1)
        harness.origin.holding = true
        let clients = [harness.connect(), harness.connect()]
        for client in clients { client.send("GET /plain/bytes/10 HTTP/1.1\r\nHost: api.example\r\n\r\n") }
        harness.network.run()
        #expect(harness.origin.connections == 2, "two exchanges at once need two connections")
        harness.origin.release()
        harness.network.run()
        #expect(clients.allSatisfy { HTTPResponseParser.parse($0.receive()).first?.status == 200 })
        #expect(harness.origin.openConnections == 1, "one pooled, one closed")
    }

    /// An idle connection the origin closes leaves the pool: the next request opens a new
    /// connection instead of failing on the closed one.
    @Test func anIdleConnectionTheOriginClosedIsNotUsed() throws {
        let harness = try Self.harness()
        _ = Self.exchange("/plain/json", harness)
        try #require(harness.origin.accepted.first).close()
        harness.network.run()
        let answer = Self.exchange("/plain/bytes/7", harness)
        #expect(String(decoding: answer, as: UTF8.self).hasSuffix("\r\n\r\nxxxxxxx"))
        #expect(harness.origin.connections == 2)
    }

    /// Behind an h2c upstream, every exchange is a stream of the loop's one upstream
    /// connection, and a cut or reset stream is cancelled without closing it.
    @Test func theHTTP2LegSharesOneConnectionAndSurvivesCutStreams() throws {
        let harness = try Self.harness(h2c: true)
        for count in [10, 3000, 70_000] {
            let answer = String(decoding: Self.exchange("/plain/bytes/\(count)", harness), as: UTF8.self)
            #expect(answer.hasPrefix("HTTP/1.1 200 OK\r\n") && answer.hasSuffix(String(repeating: "x", count: count)), "\(count) bytes")
        }
        let cut = Self.exchange("/close1k/bytes/5000", harness)
        #expect(cut.count > 1000)
        _ = Self.exchange("/reset/json", harness)
        let after = String(decoding: Self.exchange("/plain/bytes/10", harness), as: UTF8.self)
        #expect(after.hasSuffix("xxxxxxxxxx"))
        #expect(harness.origin.connections == 1 && harness.origin.openConnections == 1)
        let status = String(decoding: Self.exchange("/st503/json", harness), as: UTF8.self)
        #expect(status.hasPrefix("HTTP/1.1 503 ") && status.hasSuffix("down"))
        #expect(!harness.origin.targets.contains("/st503/json"), "a status fault never opens a stream")
    }
}

/// Flow control between the legs, with 8 KiB receive buffers: a client that does not read
/// stops the proxy reading the origin (the response waits in the origin's connection, not in
/// the proxy), and reading resumes as the client drains; the whole body arrives, in order.
@Suite("Backpressure on the in-memory network")
struct BackpressureMemoryTests {
    @Test func aClientThatDoesNotReadHoldsTheOriginBack() throws {
        let harness = try MemoryHarness(configJSON: MemoryFaultRoutes.config(), capacity: 8192)
        let client = harness.connect()
        client.send("GET /plain/bytes/300000 HTTP/1.1\r\nHost: api.example\r\nConnection: close\r\n\r\n")
        harness.network.run()
        let upstream = try #require(harness.origin.accepted.first)
        #expect(upstream.inFlight > 200_000, "the proxy stopped reading the origin: \(upstream.inFlight) bytes wait there")
        var bytes: [UInt8] = []
        var rounds = 0
        while client.peerEnd == .open && rounds < 10_000 {
            bytes += client.receive()
            harness.network.run()
            rounds += 1
        }
        bytes += client.receive()
        let body = bytes.firstRange(of: Array("\r\n\r\n".utf8)).map { Array(bytes[$0.upperBound...]) } ?? []
        #expect(body.count == 300_000 && body.allSatisfy { $0 == UInt8(ascii: "x") }, "\(body.count) body bytes")
        #expect(rounds > 10, "the body came in many turns, as the client read")
    }
}
