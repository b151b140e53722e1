import Dispatch
import Testing
@testable import FaultlineDemoOrigin

/// A client frame, masked as RFC 6455 requires.
func demoMaskedFrame(opcode: UInt8, payload: [UInt8], fin: Bool = true, mask: [UInt8] = [0x37, 0xfa, 0x21, 0x3d]) -> [UInt8] {
    var frame: [UInt8] = [(fin ? 0x80 : 0) | opcode]
    if payload.count < 126 {
        frame.append(0x80 | UInt8(payload.count))
    } else if payload.count <= 0xffff {
        frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xff)]
    } else {
        frame.append(0x80 | 127)
        for shift in stride(from: 56, through: 0, by: -8) { frame.append(UInt8(UInt64(payload.count) >> UInt64(shift) & 0xff)) }
    }
    frame += mask
    frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    return frame
}

extension DemoOriginTestClient {
    /// Reads one server frame (which must be unmasked).
    func readFrame() throws -> (fin: Bool, opcode: UInt8, payload: [UInt8]) {
        let start = try receive(exactly: 2)
        guard start[1] & 0x80 == 0 else { throw DemoOriginTestError("server frame is masked") }
        var length = UInt64(start[1] & 0x7f)
        if length == 126 {
            length = try receive(exactly: 2).reduce(0) { $0 << 8 | UInt64($1) }
        } else if length == 127 {
            length = try receive(exactly: 8).reduce(0) { $0 << 8 | UInt64($1) }
        }
        return (start[0] & 0x80 != 0, start[0] & 0x0f, try receive(exactly: Int(length)))
    }

    /// Performs the opening handshake.
    func openWebSocket() throws -> DemoOriginTestResponse {
        try send("GET /ws HTTP/1.1\r\nHost: t\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                 + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        return try readResponse()
    }
}

@Suite("Demo origin WebSocket", .timeLimit(.minutes(1)))
struct DemoOriginWebSocketTests {
    @Test func handshakeUsesTheRFCAcceptValue() throws {
        #expect(DemoOriginRouter.acceptValue(forKey: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        let client = try DemoOriginFixture.client()
        let response = try client.openWebSocket()
        #expect(response.status == 101)
        #expect(response.header("upgrade") == "websocket")
        #expect(response.header("sec-websocket-accept") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test func echoesTextAndLargeBinaryAndAnswersPingAndClose() throws {
        let client = try DemoOriginFixture.client()
        #expect(try client.openWebSocket().status == 101)
        try client.send(demoMaskedFrame(opcode: 1, payload: Array("hello, websocket".utf8)))
        let text = try client.readFrame()
        #expect(text.fin && text.opcode == 1 && text.payload == Array("hello, websocket".utf8))

        let binary = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let fd = client.fd
        let frame = demoMaskedFrame(opcode: 2, payload: binary)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            DemoOriginTestClient.sendAll(fd: fd, frame)
            done.signal()
        }
        // The client owns `fd`: it must outlive the sender on every path, or its deinit closes
        // a descriptor the sender still writes to, which another test may reuse meanwhile.
        var sent = DispatchTimeoutResult.timedOut
        defer {
            if sent != .success { _ = done.wait(timeout: .now() + 30) }
            withExtendedLifetime(client) {}
        }
        let echoed = try client.readFrame()
        sent = done.wait(timeout: .now() + 10)
        #expect(sent == .success)
        #expect(echoed.opcode == 2 && echoed.payload == binary)

        // Fragments are echoed as they are, with a ping answered in between.
        try client.send(demoMaskedFrame(opcode: 1, payload: Array("frag".utf8), fin: false)
                        + demoMaskedFrame(opcode: 9, payload: Array("p".utf8))
                        + demoMaskedFrame(opcode: 0, payload: Array("ment".utf8)))
        let first = try client.readFrame()
        #expect(!first.fin && first.opcode == 1 && first.payload == Array("frag".utf8))
        let pong = try client.readFrame()
        #expect(pong.opcode == 10 && pong.payload == Array("p".utf8))
        let last = try client.readFrame()
        #expect(last.fin && last.opcode == 0 && last.payload == Array("ment".utf8))

        try client.send(demoMaskedFrame(opcode: 8, payload: [0x03, 0xe8]))
        let close = try client.readFrame()
        #expect(close.opcode == 8 && close.payload == [0x03, 0xe8])
        #expect(try client.receiveUntilClosed().isEmpty)
    }

    @Test func unmaskedFrameIsAProtocolError() throws {
        let client = try DemoOriginFixture.client()
        #expect(try client.openWebSocket().status == 101)
        try client.send([0x81, 0x02, 0x68, 0x69])
        let close = try client.readFrame()
        #expect(close.opcode == 8 && close.payload == [0x03, 0xea])
        #expect(try client.receiveUntilClosed().isEmpty)
    }

    @Test func badHandshakesAreRefused() throws {
        let version = try demoGet("/ws", headers: "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                                  + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 8\r\n")
        #expect(version.status == 426)
        #expect(version.header("sec-websocket-version") == "13")
        let key = try demoGet("/ws", headers: "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                              + "Sec-WebSocket-Key: short\r\nSec-WebSocket-Version: 13\r\n")
        #expect(key.status == 400)
        #expect(try demoGet("/ws").status == 426)
        // A refused upgrade leaves the connection speaking HTTP.
        let client = try DemoOriginFixture.client()
        try client.send("GET /json HTTP/1.1\r\nHost: t\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\nGET /64 HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try client.readResponse().status == 200)
        #expect(try client.readResponse().body.count == 64)
    }
}
