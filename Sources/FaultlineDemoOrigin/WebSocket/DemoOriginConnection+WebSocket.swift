import FaultlineIO

extension DemoOriginConnection {
    /// Completes the handshake; from here on the connection speaks WebSocket frames.
    func acceptWebSocket(_ accept: String) {
        var head: [UInt8] = []
        DemoOriginResponseHead.encode(status: 101, contentType: nil, framing: .none, keepAlive: true, http10: false,
                                      extra: [("Upgrade", "websocket"), ("Connection", "Upgrade"),
                                              ("Sec-WebSocket-Accept", accept)],
                                      into: &head)
        socket.write(head)
        exchange = nil
        webSocket = DemoWebSocketFrameDecoder()
    }

    /// Echoes data frames as they are (fragmentation kept), answers ping with pong and close
    /// with close.
    func receiveWebSocket(_ bytes: UnsafeRawBufferPointer) {
        guard var decoder = webSocket, !bytes.isEmpty else { return }
        let events = decoder.feed(bytes)
        webSocket = decoder
        for event in events {
            guard !isFinished else { return }
            switch event {
            case .frame(let header):
                socket.write(DemoWebSocketFrame.header(fin: header.fin, opcode: header.opcode, length: header.length))
            case .payload(let payload):
                socket.write(payload)
            case .control(opcode: 9, let payload):
                socket.write(DemoWebSocketFrame.frame(opcode: 10, payload: payload))
            case .control(opcode: 8, let payload):
                // Echoing the close payload returns the client's status code, as RFC 6455 suggests.
                socket.write(DemoWebSocketFrame.frame(opcode: 8, payload: payload))
                shutDown()
            case .control:
                break
            case .failure(let closeCode, _):
                socket.write(DemoWebSocketFrame.close(code: closeCode))
                shutDown()
            }
        }
        if socket.pendingWriteBytes > DemoOriginConnection.highWater { updateReading() }
    }
}
