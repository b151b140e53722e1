import Testing
import FaultlineHTTP
@testable import FaultlineHTTP2

/// RST_STREAM, GOAWAY and the flood limits nghttp2 enforces.
@Suite("HTTP/2 resets and shutdown")
struct ShutdownTests {
    @Test func resetByTheClientReachesTheServerAndSparesOtherStreams() throws {
        let pair = try SessionPair()
        let reset = try pair.client.submitRequest(fields: SessionPair.request(method: "POST"), endStream: false)
        let other = try pair.client.submitRequest(fields: SessionPair.request(), endStream: true)
        pair.pump()
        pair.client.resetStream(streamID: reset, errorCode: .cancel)
        pair.pump()
        #expect(pair.serverEvents.contains { if case .resetReceived(reset, .cancel) = $0 { true } else { false } })
        #expect(pair.serverEvents.closeCode(reset) == .cancel)
        try pair.server.submitResponse(streamID: other, fields: SessionPair.fields([(":status", "200")]), endStream: true)
        pair.pump()
        #expect(pair.clientEvents.closeCode(other) == .noError)
    }

    @Test func resetByTheServerDropsItsQueuedBody() throws {
        let pair = try SessionPair(client: HTTP2Settings(initialStreamWindow: 16384))
        let id = try pair.client.submitRequest(fields: SessionPair.request(), endStream: true)
        pair.pump()
        try pair.server.submitResponse(streamID: id, fields: SessionPair.fields([(":status", "200")]), endStream: false)
        pair.server.sendBody(streamID: id, [UInt8](repeating: 1, count: 40000))
        pair.pump()
        pair.server.resetStream(streamID: id, errorCode: .internalError)
        pair.pump()
        #expect(pair.clientEvents.contains { if case .resetReceived(id, .internalError) = $0 { true } else { false } })
        #expect(pair.clientEvents.body(id).count == 16384)
        #expect(pair.server.openStreamCount == 0)
    }

    @Test func gracefulGoAwayLetsStreamsInFlightFinish() throws {
        let pair = try SessionPair()
        let inFlight = try pair.client.submitRequest(fields: SessionPair.request(), endStream: true)
        pair.pump()
        pair.server.submitShutdownNotice()
        pair.pump()
        #expect(pair.clientEvents.goAway?.lastStreamID == Int32.max)
        pair.server.goAway(errorCode: .noError)
        pair.pump()
        #expect(pair.clientEvents.goAway?.errorCode == .noError)
        try pair.server.submitResponse(streamID: inFlight, fields: SessionPair.fields([(":status", "200")]), endStream: true)
        pair.pump()
        #expect(pair.clientEvents.closeCode(inFlight) == .noError)
        // A request after the final GOAWAY is not processed.
        let late = try? pair.client.submitRequest(fields: SessionPair.request(), endStream: true)
        pair.pump()
        if let late { #expect(pair.serverEvents.blocks(late).isEmpty) }
        #expect(pair.server.isFinished)
    }

    @Test func goAwayWithAnExplicitLastStreamID() throws {
        let pair = try SessionPair()
        let first = try pair.client.submitRequest(fields: SessionPair.request(), endStream: true)
        let second = try pair.client.submitRequest(fields: SessionPair.request(), endStream: true)
        pair.pump()
        pair.server.goAway(errorCode: .noError, lastStreamID: first)
        pair.pump()
        let goAway = try #require(pair.clientEvents.goAway)
        #expect(goAway.lastStreamID == first)
        // nghttp2 closes the streams above the last id on the client side.
        #expect(pair.clientEvents.closeCode(second) == .refusedStream)
    }

    @Test func immediateGoAwayEndsTheSession() throws {
        let pair = try SessionPair()
        _ = try pair.client.submitRequest(fields: SessionPair.request(), endStream: true)
        pair.pump()
        pair.server.terminate(errorCode: .enhanceYourCalm)
        pair.pump()
        #expect(pair.clientEvents.goAway?.errorCode == .enhanceYourCalm)
        #expect(pair.server.isFinished)
    }

    @Test func rapidResetIsStoppedByNghttp2() throws {
        let pair = try SessionPair(server: HTTP2Settings(streamResetBurst: 5, streamResetRate: 0))
        for _ in 0..<20 {
            let id = try pair.client.submitRequest(fields: SessionPair.request(), endStream: true)
            pair.pump()
            pair.client.resetStream(streamID: id, errorCode: .cancel)
            pair.pump()
        }
        #expect(pair.clientEvents.goAway != nil)
        #expect(!pair.server.wantsRead)
    }

    @Test func pingFloodWithoutReadingEndsTheConnection() throws {
        let server = try HTTP2Session(role: .server, settings: HTTP2Settings(maxOutboundAcks: 10))
        var bytes = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8) + Frames.settings()
        for _ in 0..<50 { bytes += Frames.ping() }
        let events = server.receive(bytes)
        #expect(events.contains { if case .connectionError = $0 { true } else { false } })
    }

    @Test func continuationFloodEndsTheConnection() throws {
        let server = try HTTP2Session(role: .server, settings: HTTP2Settings(maxContinuations: 4))
        var bytes = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8) + Frames.settings()
        bytes += Frames.frame(type: 0x1, flags: 0x0, stream: 1, payload: [0x82]) // HEADERS, :method GET, no END_HEADERS
        for _ in 0..<20 { bytes += Frames.frame(type: 0x9, flags: 0x0, stream: 1, payload: [0x84]) }
        let events = server.receive(bytes)
        #expect(events.contains { if case .connectionError = $0 { true } else { false } })
        var out: [UInt8] = []
        server.send(into: &out)
        #expect(server.isFinished)
        #expect(Frames.parse(out).contains { $0.type == 0x7 && $0.payload.count >= 8 && $0.payload[7] == 0x0b }, "GOAWAY ENHANCE_YOUR_CALM")
    }

    @Test func tooManySettingsEntriesEndTheConnection() throws {
        let server = try HTTP2Session(role: .server, settings: HTTP2Settings(maxSettingsEntries: 4))
        let entries = (0..<10).flatMap { _ in [UInt8]([0, 3, 0, 0, 0, 10]) }
        let bytes = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8) + Frames.frame(type: 0x4, flags: 0, stream: 0, payload: entries)
        let events = server.receive(bytes)
        var out: [UInt8] = []
        server.send(into: &out)
        #expect(events.contains { if case .connectionError = $0 { true } else { false } } || !server.wantsRead)
    }

    @Test func badPrefaceEndsTheConnection() throws {
        let server = try HTTP2Session(role: .server)
        let events = server.receive(Array("GET / HTTP/1.1\r\nHost: a\r\n\r\n".utf8))
        #expect(events.contains { if case .connectionError = $0 { true } else { false } })
    }
}
