import Foundation
import Testing
import FaultlineTestSupport

/// Every exchange is bounded: a request body answered by a fault or by the proxy itself
/// times out and is held to the body limit, and an idle WebSocket tunnel is closed.
@Suite(.timeLimit(.minutes(1)))
struct ExchangeLimitsTests {
    static func stack() async throws -> FaultStack {
        let origin = try await OriginProcess.counting()
        return try await FaultStack.start(routes: [
            .init(name: "api", match: #"{"path_prefix": "/api"}"#),
            .init(name: "down", match: #"{"path_prefix": "/down"}"#, faults: #"[{"status": 503}]"#),
            .init(name: "cut", match: #"{"path_prefix": "/cut"}"#, faults: #"[{"close": {}}]"#),
        ], topLevel: #""limits": {"max_request_body_bytes": 1000}, "timeouts_ms": {"client_header": 2000, "client_idle": 600, "drain": 1000}"#,
           origin: origin)
    }

    /// The demo origin behind a proxy whose upstream closes a tunnel idle for `idleMs`.
    static func tunnelStack(idleMs: Int) async throws -> ProxyStack {
        try await ProxyStack.demo { port in
            var config = ProxyConfig.single(port: port)
            config.upstreams["o"]?.tunnelIdleMs = idleMs
            return config
        }
    }

    /// A WebSocket upgrade request for `/ws` (the demo origin echoes frames).
    static let webSocketUpgrade = "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"

    @Test(arguments: ["/down/x", "/cut/x", "/nowhere/x"])
    func stalledBodyOnALocallyAnsweredRouteTimesOut(_ path: String) async throws {
        let stack = try await Self.stack()
        defer { stack.stop() }
        let reply = try await Blocking.run { () -> (bytes: [UInt8], closed: Bool, elapsed: Duration) in
            let client = try RawClient(port: stack.proxy.port)
            try client.send("POST \(path) HTTP/1.1\r\nHost: a\r\nContent-Length: 100\r\n\r\nonly ten b")
            let start = ContinuousClock.now
            let result = client.readUntilClose(timeout: .seconds(10))
            return (result.bytes, result.closed, ContinuousClock.now - start)
        }
        #expect(reply.closed, "\(path): a stalled body must time out")
        #expect(reply.elapsed < .seconds(8), "\(path): \(reply.elapsed)")
        let text = String(decoding: reply.bytes, as: UTF8.self)
        // A route with no match may answer 404 at once (the body is never read) and close.
        #expect(text.isEmpty || text.hasPrefix("HTTP/1.1 408") || (path == "/nowhere/x" && text.hasPrefix("HTTP/1.1 404")),
                "\(path): \(text.prefix(200))")
    }

    @Test(arguments: ["/down/x", "/cut/x", "/api/x"])
    func chunkedBodyOverTheLimitIsRefusedOnEveryRoute(_ path: String) async throws {
        let stack = try await Self.stack()
        defer { stack.stop() }
        let chunk = String(repeating: "z", count: 400)
        let reply = try await Blocking.run { () -> (bytes: [UInt8], closed: Bool) in
            let client = try RawClient(port: stack.proxy.port)
            var request = "POST \(path) HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
            for _ in 0..<5 { request += "190\r\n\(chunk)\r\n" }
            request += "0\r\n\r\n"
            try client.send(request)
            return client.readUntilClose(timeout: .seconds(10))
        }
        let text = String(decoding: reply.bytes, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 413"), "\(path): \(text.prefix(200))")
        #expect(reply.closed, "\(path)")
        #expect(stack.origin.requests("POST", path).isEmpty, "\(path): the origin got a body over the limit")
    }

    @Test func contentLengthBodyOverTheLimitIsRefusedOnAFaultRoute() async throws {
        let stack = try await Self.stack()
        defer { stack.stop() }
        let reply = try await Blocking.run { () -> (bytes: [UInt8], closed: Bool) in
            let client = try RawClient(port: stack.proxy.port)
            try client.send("POST /down/x HTTP/1.1\r\nHost: a\r\nContent-Length: 2000\r\n\r\n" + String(repeating: "y", count: 2000))
            return client.readUntilClose(timeout: .seconds(10))
        }
        #expect(String(decoding: reply.bytes, as: UTF8.self).hasPrefix("HTTP/1.1 413"))
    }

    @Test func idleWebSocketTunnelIsClosed() async throws {
        let stack = try await Self.tunnelStack(idleMs: 500)
        defer { stack.stop() }
        let reply = try await Blocking.run { () -> (head: String, closed: Bool, elapsed: Duration) in
            let client = try RawClient(port: stack.port)
            try client.send(Self.webSocketUpgrade)
            let head = String(decoding: client.read(until: "\r\n\r\n"), as: UTF8.self)
            let start = ContinuousClock.now
            let result = client.readUntilClose(timeout: .seconds(10))
            return (head, result.closed, ContinuousClock.now - start)
        }
        #expect(reply.head.hasPrefix("HTTP/1.1 101"), "\(reply.head)")
        #expect(reply.closed, "an idle tunnel must be closed after tunnel_idle")
        #expect(reply.elapsed >= .milliseconds(300) && reply.elapsed < .seconds(8), "\(reply.elapsed)")
    }

    @Test func activeWebSocketTunnelOutlivesTheIdleTimeout() async throws {
        let stack = try await Self.tunnelStack(idleMs: 600)
        defer { stack.stop() }
        let echoed = try await Blocking.run { () -> Int in
            let client = try RawClient(port: stack.port)
            try client.send(Self.webSocketUpgrade)
            _ = client.read(until: "\r\n\r\n")
            var frames = 0
            // 2 s of traffic every 200 ms: never idle for 600 ms.
            for _ in 0..<10 {
                let mask: [UInt8] = [1, 2, 3, 4]
                try client.send([0x81, 0x82] + mask + [UInt8(ascii: "h") ^ 1, UInt8(ascii: "i") ^ 2])
                if case .bytes = client.readSome() { frames += 1 }
                Thread.sleep(forTimeInterval: 0.2)
            }
            return frames
        }
        #expect(echoed == 10)
    }
}
