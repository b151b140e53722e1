import FaultlineIO
@testable import FaultlineTLS

/// A client and a server session wired back to back in memory, fed in chunks of any size.
final class TLSTestPair {
    let client: TLSSession
    let server: TLSSession
    var clientPlaintext: [UInt8] = []
    var serverPlaintext: [UInt8] = []
    var clientEvents: [ByteTransformerEvent] = []
    var serverEvents: [ByteTransformerEvent] = []
    let chunk: Int

    init(client: TLSSession, server: TLSSession, chunk: Int = Int.max) {
        self.client = client
        self.server = server
        self.chunk = chunk
    }

    /// Starts both sides and shuttles bytes until neither has anything to send.
    func handshake() {
        record(client.start(), into: &clientEvents)
        record(server.start(), into: &serverEvents)
        pump()
    }

    func pump(maxRounds: Int = 1000) {
        var buffer: [UInt8] = []
        for _ in 0..<maxRounds {
            buffer.removeAll()
            client.takeOutput(into: &buffer)
            let fromClient = buffer
            feed(fromClient, to: server, plaintext: &serverPlaintext, events: &serverEvents)
            buffer.removeAll()
            server.takeOutput(into: &buffer)
            let fromServer = buffer
            feed(fromServer, to: client, plaintext: &clientPlaintext, events: &clientEvents)
            if fromClient.isEmpty, fromServer.isEmpty { return }
        }
    }

    private func feed(_ bytes: [UInt8], to session: TLSSession, plaintext: inout [UInt8],
                      events: inout [ByteTransformerEvent]) {
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + min(chunk, bytes.count - offset))
            let event = bytes[offset..<end].withUnsafeBytes { session.receive($0, into: &plaintext) }
            record(event, into: &events)
            offset = end
        }
    }

    private func record(_ event: ByteTransformerEvent, into events: inout [ByteTransformerEvent]) {
        if event != .none { events.append(event) }
    }

    var clientFailure: String? { client.failureReason }
    var serverFailure: String? { server.failureReason }
}
