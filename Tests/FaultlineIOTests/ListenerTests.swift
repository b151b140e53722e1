import Testing
import FaultlineIO
import FaultlineTestSupport
#if canImport(Glibc)
import Glibc
#endif

@Suite("Listener", .timeLimit(.minutes(1)))
struct ListenerTests {
    @Test func acceptsConnectionsOnAnEphemeralLoopbackPortUntilClosed() throws {
        let harness = try LoopHarness()
        let address = try #require(SocketAddress(ip: "127.0.0.1", port: 0))
        let fd = try Sockets.listen(on: address, reusePort: false)
        let bound = try #require(Sockets.localAddress(of: fd))
        #expect(bound.ip == "127.0.0.1")
        #expect(bound.port != 0)

        let accepted = Recorder<(fd: Int32, peer: SocketAddress?)>()
        let listener = LoopConfined<Listener>()
        try harness.onLoop { loop in
            listener.value = try Listener(fd: fd, loop: loop) { accepted.append(($0, $1)) }
        }
        let clients = try (0..<3).map { _ in try RawClient(port: Int(bound.port)) }
        let connections = try accepted.wait("three connections") { $0.count == 3 }
        defer { connections.forEach { close($0.fd) } }
        #expect(connections.allSatisfy { $0.peer?.ip == "127.0.0.1" && $0.peer?.port != bound.port })

        // Each accepted descriptor is a live connection to one of the clients.
        for connection in connections {
            _ = Array("hello".utf8).withUnsafeBytes { send(connection.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
        for client in clients {
            #expect(client.read(until: "hello") == Array("hello".utf8))
        }

        try harness.onLoop { _ in listener.value?.close() }
        #expect(!FreePort.isListening(Int(bound.port)), "a closed listener refuses connections")
    }

    /// Accepted sockets start with delayed acknowledgements, so that a client's request is
    /// acknowledged by the response rather than by a bare ACK (one packet fewer per new
    /// connection). Linux reads TCP_QUICKACK back as 0 in that mode; listen() resets it, so
    /// it must be set after listen(), and the accepted socket inherits it.
    @Test func acceptedSocketsStartWithDelayedAcknowledgements() throws {
        let address = try #require(SocketAddress(ip: "127.0.0.1", port: 0))
        let fd = try Sockets.listen(on: address, reusePort: false)
        defer { close(fd) }
        #expect(Self.quickAck(fd) == 0, "the listening socket")
        let bound = try #require(Sockets.localAddress(of: fd))
        let client = try RawClient(port: Int(bound.port))
        defer { client.close() }
        var waiting = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        #expect(poll(&waiting, 1, 5000) == 1, "no connection to accept within 5 s")
        let accepted = try #require(try Sockets.accept(fd))
        defer { close(accepted.fd) }
        #expect(Self.quickAck(accepted.fd) == 0, "the accepted socket")
    }

    /// A deferred-accept listener has TCP_DEFER_ACCEPT set (Linux reads it back in seconds);
    /// the default listener, which the admin API and the demo origin use, does not.
    @Test func deferredAcceptIsSetOnlyWhenAsked() throws {
        let address = try #require(SocketAddress(ip: "127.0.0.1", port: 0))
        let deferred = try Sockets.listen(on: address, reusePort: false, deferAccept: true)
        defer { close(deferred) }
        let plain = try Sockets.listen(on: address, reusePort: false)
        defer { close(plain) }
        #expect(Self.option(deferred, TCP_DEFER_ACCEPT) > 0)
        #expect(Self.option(plain, TCP_DEFER_ACCEPT) == 0)
    }

    private static func quickAck(_ fd: Int32) -> Int32 {
        option(fd, TCP_QUICKACK)
    }

    private static func option(_ fd: Int32, _ name: Int32) -> Int32 {
        var value: Int32 = -1
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, Int32(IPPROTO_TCP), name, &value, &length) == 0 else { return -1 }
        return value
    }
}
