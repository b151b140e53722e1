import Testing
@testable import FaultlineIO
import FaultlineMemoryIO
#if canImport(Glibc)
import Glibc
#endif

/// `StreamSocket` on the in-memory transport: the same socket code as on a descriptor
/// (queueing, drain, half-close, graceful close, reset, connect), its system calls answered
/// by `FaultlineMemoryIO` and its events delivered synchronously by `MemoryNetwork.run()`.
@Suite("StreamSocket on an in-memory transport")
struct StreamSocketMemoryTests {
    /// A socket on the host end of a new connection, with a recording delegate.
    static func socket(_ network: MemoryNetwork) -> (StreamSocket, RecordingDelegate, MemoryEndpoint) {
        let (host, peer) = network.connection()
        let socket = StreamSocket(transport: host, loop: network.loop, peer: nil)
        let delegate = RecordingDelegate()
        socket.delegate = delegate
        return (socket, delegate, peer)
    }

    @Test func bytesFlowBothWaysAndEndOfFileIsReported() throws {
        let network = try MemoryNetwork()
        let (socket, delegate, peer) = Self.socket(network)
        peer.send("ping")
        network.run()
        #expect(delegate.received == Array("ping".utf8))
        socket.write(Array("pong".utf8))
        #expect(peer.receive() == Array("pong".utf8))
        peer.finish()
        network.run()
        #expect(delegate.events.all.last == .endOfFile)
        #expect(!socket.isReading)
    }

    /// Past the peer's receive buffer, writes queue; the socket asks for writability and
    /// drains the queue, in order, as the peer reads.
    @Test func writesQueueBeyondThePeersBufferAndDrainAsItReads() throws {
        let network = try MemoryNetwork(capacity: 10)
        let (socket, delegate, peer) = Self.socket(network)
        socket.write(Array("0123456789abcdefghijklmnopqrstuvwxy".utf8))
        #expect(socket.pendingWriteBytes == 25)
        var received: [UInt8] = []
        for _ in 0..<10 where socket.pendingWriteBytes > 0 {
            received += peer.receive()
            network.run()
        }
        received += peer.receive()
        #expect(String(decoding: received, as: UTF8.self) == "0123456789abcdefghijklmnopqrstuvwxy")
        #expect(delegate.events.all.contains(.drained))
    }

    /// A graceful close with unread input lingers (reading and dropping) until the peer
    /// finishes, so that the close is a FIN; a hard close with unread input is an RST.
    @Test func aGracefulCloseLingersAndAHardCloseWithUnreadInputResets() throws {
        let network = try MemoryNetwork()
        let (socket, _, peer) = Self.socket(network)
        socket.setReading(false)
        peer.send("unread")
        socket.write(Array("bye".utf8))
        socket.closeGracefully()
        network.run()
        #expect(peer.receive() == Array("bye".utf8) && peer.peerEnd == .finished)
        peer.finish()
        network.run()
        #expect(socket.isClosed)

        let (hard, _, other) = Self.socket(network)
        hard.setReading(false)
        other.send("unread")
        hard.close()
        #expect(other.peerEnd == .reset)
    }

    /// A reset from the peer fails the socket with ECONNRESET; a refused connect fails while
    /// connecting.
    @Test func aResetAndARefusedConnectFailTheSocket() throws {
        let network = try MemoryNetwork()
        let (socket, delegate, peer) = Self.socket(network)
        peer.reset()
        network.run()
        #expect(socket.isClosed && delegate.events.all == [.failed(ECONNRESET)])

        guard let address = SocketAddress(ip: "127.0.0.1", port: 9) else { Issue.record("address"); return }
        let refused = try StreamSocket.connect(to: address, on: network.loop)
        let connectDelegate = RecordingDelegate()
        refused.delegate = connectDelegate
        network.run()
        #expect(connectDelegate.events.all == [.failed(ECONNREFUSED)] && refused.isConnecting)

        var accepted: MemoryEndpoint?
        network.listen(at: address) { accepted = $0 }
        let connected = try StreamSocket.connect(to: address, on: network.loop)
        let connectedDelegate = RecordingDelegate()
        connected.delegate = connectedDelegate
        connected.write(Array("early".utf8))
        network.run()
        #expect(connectedDelegate.events.all.first == .connected)
        #expect(accepted?.receive() == Array("early".utf8), "bytes written while connecting go out once connected")
    }

    /// The loop's clock moves only by hand: a timer fires at its time, not before.
    @Test func timersFireWhenTheClockReachesThem() throws {
        let network = try MemoryNetwork()
        let fired = Recorder<UInt64>()
        let start = network.now
        network.loop.schedule(afterMilliseconds: 250) { fired.append(network.loop.now) }
        network.advance(byMilliseconds: 249)
        #expect(fired.all.isEmpty)
        network.advance(byMilliseconds: 1)
        #expect(fired.all == [start + 250_000_000])
    }
}
