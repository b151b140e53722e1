import Foundation
import Synchronization
import Testing
import FaultlineIO
#if canImport(Glibc)
import Glibc
#endif

/// A stream socket on a real loop and loopback TCP: what its owner sees at each stage.
@Suite("Stream socket behaviour")
struct StreamSocketBehaviourTests {
    private static let group: Result<EventLoopGroup, any Error> = Result { try EventLoopGroup(count: 1) }

    private func loop() throws -> EventLoop {
        try #require(try Self.group.get().loops.first)
    }

    /// A connect that fails still reads as connecting when the owner hears of it, so the
    /// owner can tell a failed connect from a failure of an established connection.
    @Test func aRefusedConnectFailsWhileConnecting() async throws {
        // A port that was just free: nothing listens on it.
        let listener = try Sockets.listen(on: try #require(SocketAddress(ip: "127.0.0.1", port: 0)), reusePort: false)
        let address = try #require(Sockets.localAddress(of: listener))
        Sockets.close(listener)
        let recorder = Recorder()
        let loop = try loop()
        loop.execute {
            do {
                let socket = try StreamSocket.connect(to: address, on: loop)
                socket.delegate = recorder
                recorder.note(socket.isConnecting ? "connecting" : "not connecting")
            } catch {
                recorder.note("connect threw")
            }
        }
        let events = await recorder.wait(for: 2)
        #expect(events == ["connecting", "failed while connecting, closed"])
    }

    /// Bytes written before the connect completes go out after it; the peer's FIN reaches the
    /// owner once, after which the socket no longer reads, even when asked to.
    @Test func earlyWritesGoOutAndEndOfInputStopsReading() async throws {
        let listener = try Sockets.listen(on: try #require(SocketAddress(ip: "127.0.0.1", port: 0)), reusePort: false)
        defer { Sockets.close(listener) }
        let address = try #require(Sockets.localAddress(of: listener))
        let recorder = Recorder()
        let loop = try loop()
        loop.execute {
            do {
                let socket = try StreamSocket.connect(to: address, on: loop)
                socket.delegate = recorder
                recorder.socket = socket
                _ = socket.write(Array("hello".utf8))
                recorder.note("queued \(socket.pendingWriteBytes)")
            } catch {
                recorder.note("connect threw")
            }
        }
        // The listener does not block: poll it for the connection.
        var accepted: Int32 = -1
        for _ in 0..<1000 where accepted < 0 {
            accepted = Glibc.accept(listener, nil, nil)
            if accepted < 0 { try await Task.sleep(for: .milliseconds(10)) }
        }
        guard accepted >= 0 else { throw SocketTestError() }
        let peer = accepted
        defer { Sockets.close(peer) }
        var received = [UInt8](repeating: 0, count: 16)
        let count = Glibc.recv(peer, &received, received.count, 0)
        #expect(String(decoding: received.prefix(max(0, count)), as: UTF8.self) == "hello")
        Sockets.shutdownWrite(peer)
        let events = await recorder.wait(for: 4)
        #expect(events == ["queued 5", "connected", "drained", "end of input, reading false, still false"]
                || events == ["queued 5", "connected", "end of input, reading false, still false"], "\(events)")
        loop.execute { recorder.socket?.close() }
    }
}

private struct SocketTestError: Error {}

/// Collects what a socket tells its delegate, on the loop; the test waits for a count.
private final class Recorder: StreamSocketDelegate, @unchecked Sendable {
    private let events = Mutex<[String]>([])
    /// The socket under test; touched on the loop only.
    var socket: StreamSocket?

    func note(_ event: String) {
        events.withLock { $0.append(event) }
    }

    /// The events once `count` arrived, or what arrived within ten seconds.
    func wait(for count: Int) async -> [String] {
        for _ in 0..<1000 {
            let seen = events.withLock { $0 }
            if seen.count >= count || seen.last?.hasPrefix("end of input") == true { return seen }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return events.withLock { $0 }
    }

    func socket(_ socket: StreamSocket, didRead bytes: UnsafeRawBufferPointer) {
        note("read \(bytes.count)")
    }

    func socketDidReadEOF(_ socket: StreamSocket) {
        let reading = socket.isReading
        socket.setReading(true)
        note("end of input, reading \(reading), still \(socket.isReading)")
    }

    func socketDidDrain(_ socket: StreamSocket) {
        note("drained")
    }

    func socketDidConnect(_ socket: StreamSocket) {
        note("connected")
    }

    func socket(_ socket: StreamSocket, didFail error: IOError) {
        note("failed \(socket.isConnecting ? "while connecting" : "after connecting"), \(socket.isClosed ? "closed" : "open")")
    }
}
