import Testing
import FaultlineHTTP
@testable import FaultlineHTTP2

/// Manual flow control: a stream's window reopens only as its consumer drains, and a stream
/// whose consumer stalls never holds the connection.
@Suite("HTTP/2 flow control")
struct FlowControlTests {
    @Test func anUploadWhoseConsumerStallsHoldsOnlyItsOwnStream() throws {
        let window: UInt32 = 65535
        let pair = try SessionPair(server: HTTP2Settings(initialStreamWindow: window, connectionWindow: 65535))
        let slow = try pair.client.submitRequest(fields: SessionPair.request(method: "POST"), endStream: false)
        pair.client.sendBody(streamID: slow, [UInt8](repeating: 1, count: 300_000))
        pair.pump()
        // The server never consumed: the stream got at most its window.
        #expect(pair.serverEvents.body(slow).count == Int(window))
        #expect(pair.client.queuedOutboundBytes(streamID: slow) == 300_000 - Int(window))

        // Another stream still moves, many times the connection window.
        let fast = try pair.client.submitRequest(fields: SessionPair.request(method: "POST"), endStream: false)
        var fastConsumed = 0
        for _ in 0..<10 {
            pair.client.sendBody(streamID: fast, [UInt8](repeating: 2, count: 60000))
            for _ in 0..<5 {
                pair.pump()
                let now = pair.serverEvents.body(fast).count
                pair.server.consume(streamID: fast, count: now - fastConsumed)
                fastConsumed = now
            }
        }
        pair.client.finishBody(streamID: fast)
        pair.pump()
        #expect(pair.serverEvents.body(fast).count == 600_000)
        #expect(pair.serverEvents.ended(fast))

        // Draining the slow stream reopens it.
        var drained = pair.serverEvents.body(slow).count
        pair.server.consume(streamID: slow, count: drained)
        pair.client.finishBody(streamID: slow)
        for _ in 0..<20 where !pair.serverEvents.ended(slow) {
            pair.pump()
            let now = pair.serverEvents.body(slow).count
            pair.server.consume(streamID: slow, count: now - drained)
            drained = now
        }
        #expect(pair.serverEvents.body(slow).count == 300_000)
        #expect(pair.serverEvents.ended(slow))
    }

    @Test func aResponseWaitsForTheClientToConsumeAndReportsDrained() throws {
        let pair = try SessionPair(client: HTTP2Settings(initialStreamWindow: 16384))
        let id = try pair.client.submitRequest(fields: SessionPair.request(), endStream: true)
        pair.pump()
        try pair.server.submitResponse(streamID: id, fields: SessionPair.fields([(":status", "200")]), endStream: false)
        pair.server.sendBody(streamID: id, [UInt8](repeating: 7, count: 50000))
        pair.pump()
        #expect(pair.clientEvents.body(id).count == 16384)
        #expect(pair.server.queuedOutboundBytes(streamID: id) == 50000 - 16384)
        #expect(!pair.serverEvents.contains { if case .outboundDrained(id) = $0 { true } else { false } })
        var drained = 0
        for _ in 0..<10 where pair.server.queuedOutboundBytes(streamID: id) > 0 {
            let now = pair.clientEvents.body(id).count
            pair.client.consume(streamID: id, count: now - drained)
            drained = now
            pair.pump()
        }
        #expect(pair.server.queuedOutboundBytes(streamID: id) == 0)
        #expect(pair.serverEvents.contains { if case .outboundDrained(id) = $0 { true } else { false } })
        pair.server.finishBody(streamID: id)
        pair.pump()
        #expect(pair.clientEvents.body(id).count == 50000)
        #expect(pair.clientEvents.ended(id))
    }

    /// DATA payloads go from the stream's queue straight into the output during `send(into:)`;
    /// a pass still stops once it holds `limit` bytes, and the next pass goes on where it
    /// stopped, two streams' bodies arriving whole and in order with their trailers.
    @Test func aSendPassStopsAtItsLimitAndTheNextGoesOnInOrder() throws {
        let pair = try SessionPair(client: HTTP2Settings(initialStreamWindow: 1 << 30, connectionWindow: 1 << 30))
        let first = try pair.client.submitRequest(fields: SessionPair.request(path: "/a"), endStream: true)
        let second = try pair.client.submitRequest(fields: SessionPair.request(path: "/b"), endStream: true)
        pair.pump()
        let bodies: [Int32: [UInt8]] = [
            first: (0..<300_000).map { UInt8(truncatingIfNeeded: $0 % 251) },
            second: (0..<200_000).map { UInt8(truncatingIfNeeded: $0 % 241 + 7) },
        ]
        for id in [first, second] {
            try pair.server.submitResponse(streamID: id, fields: SessionPair.fields([(":status", "200")]), endStream: false)
            pair.server.sendBody(streamID: id, bodies[id] ?? [])
            pair.server.finishBody(streamID: id, trailers: SessionPair.fields([("x-checksum", "\(id)")]))
        }
        let limit = 40_000
        var passes = 0
        var events: [HTTP2Event] = []
        while passes < 100 {
            var output: [UInt8] = []
            pair.server.send(into: &output, limit: limit)
            _ = pair.server.takeEvents()
            if output.isEmpty { break }
            passes += 1
            // At most one frame (16 KiB of payload and its header) past the limit.
            #expect(output.count < limit + 16384 + 9, "pass \(passes) wrote \(output.count) bytes")
            events += pair.client.receive(output)
        }
        #expect(passes >= 500_000 / (limit + 16384 + 9))
        for id in [first, second] {
            #expect(events.body(id) == bodies[id])
            #expect(events.ended(id))
            #expect(events.blocks(id).last?.fields.first("x-checksum") == "\(id)")
        }
    }
}
