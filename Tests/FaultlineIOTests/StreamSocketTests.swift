import Testing
import FaultlineIO
import FaultlineTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A `StreamSocket` on one end of a socket pair, the test's `PeerEnd` on the other.
@Suite("Stream socket over a socket pair", .timeLimit(.minutes(1)))
struct StreamSocketTests {
    private struct Fixture {
        let harness: LoopHarness
        let socket = LoopConfined<StreamSocket>()
        let delegate = RecordingDelegate()
        let peer: PeerEnd

        init(smallBuffers: Bool = false) throws {
            harness = try LoopHarness()
            let pair = try SocketPair()
            if smallBuffers {
                SocketPair.shrinkBuffers(pair.first, to: 4096)
                SocketPair.shrinkBuffers(pair.second, to: 4096)
            }
            peer = PeerEnd(fd: pair.second)
            let (socket, delegate) = (self.socket, self.delegate)
            try harness.onLoop { loop in
                let stream = try StreamSocket(fd: pair.first, loop: loop, peer: nil)
                stream.delegate = delegate
                socket.value = stream
            }
        }

        /// Runs `body` with the socket on its loop.
        func withSocket<T: Sendable>(_ body: @escaping @Sendable (StreamSocket) throws -> T) throws -> T {
            let socket = self.socket
            return try harness.onLoop { _ in
                guard let stream = socket.value else { throw TestFailure("no socket") }
                return try body(stream)
            }
        }

        /// Closes both ends.
        func tearDown() {
            _ = try? withSocket { $0.close() }
            close(peer.fd)
        }
    }

    @Test func bytesFlowBothWays() throws {
        let fixture = try Fixture()
        defer { fixture.tearDown() }
        try fixture.peer.send(Array("ping".utf8))
        #expect(try fixture.delegate.waitForBytes(4) == Array("ping".utf8))
        #expect(try fixture.withSocket { $0.write(Array("pong".utf8)) })
        #expect(try fixture.peer.receive(4) == Array("pong".utf8))
        #expect(try fixture.withSocket { $0.bytesSent } == 4)
    }

    @Test func halfCloseReportsEndOfFileAndTheOtherDirectionStaysOpen() throws {
        let fixture = try Fixture()
        defer { fixture.tearDown() }
        try fixture.peer.send(Array("last words".utf8))
        fixture.peer.shutdownWrite()
        try fixture.delegate.wait(for: "end of file") { $0 == .endOfFile }
        #expect(fixture.delegate.received == Array("last words".utf8), "bytes before the FIN arrive first")
        let state = try fixture.withSocket { socket -> (Bool, Bool) in
            socket.setReading(true)  // never resumes after end of file
            return (socket.isReading, socket.isClosed)
        }
        #expect(state == (false, false))
        #expect(try fixture.withSocket { $0.write(Array("reply".utf8)) })
        #expect(try fixture.peer.receive(5) == Array("reply".utf8))
    }

    @Test func closeSendsEndOfFileAndLaterWritesFail() throws {
        let fixture = try Fixture()
        defer { close(fixture.peer.fd) }
        try fixture.withSocket { $0.close() }
        try fixture.peer.waitForEndOfFile()
        let written = try fixture.withSocket { socket -> Bool in socket.write(Array("late".utf8)) }
        #expect(!written)
        #expect(try fixture.withSocket { $0.isClosed })
        #expect(!fixture.delegate.events.all.contains(.endOfFile), "a local close is not reported as the peer's")
    }

    @Test func aFullPeerQueuesWritesAndDrainIsReportedOnceTheyLeave() throws {
        let fixture = try Fixture(smallBuffers: true)
        defer { fixture.tearDown() }
        var random = SplitMix64(seed: 7)
        let payload = (0..<(1 << 20)).map { _ in UInt8.random(in: 0...255, using: &random) }
        let (accepted, pending) = try fixture.withSocket { socket in (socket.write(payload), socket.pendingWriteBytes) }
        #expect(accepted)
        #expect(pending > 0, "a 4 KiB socket buffer cannot take 1 MiB at once")
        #expect(!fixture.delegate.events.all.contains(.drained), "nothing drains while the peer reads nothing")
        #expect(try fixture.peer.receive(payload.count) == payload)
        try fixture.delegate.wait(for: "drain") { $0 == .drained }
        #expect(try fixture.withSocket { $0.pendingWriteBytes } == 0)
        #expect(try fixture.withSocket { $0.bytesSent } == UInt64(payload.count))
    }

    @Test func pausedReadingHoldsBytesBackUntilResumed() throws {
        let fixture = try Fixture()
        defer { fixture.tearDown() }
        try fixture.withSocket { $0.setReading(false) }
        try fixture.peer.send(Array("held".utf8))
        // Reading is off: give the loop time to (wrongly) deliver, then check it did not.
        try fixture.withSocket { _ in }
        usleep(100_000)
        try fixture.withSocket { _ in }
        #expect(fixture.delegate.received.isEmpty)
        try fixture.withSocket { $0.setReading(true) }
        #expect(try fixture.delegate.waitForBytes(4) == Array("held".utf8))
    }

    @Test func aPeerThatGoesAwayWithWritesQueuedFailsTheSocket() throws {
        let fixture = try Fixture(smallBuffers: true)
        defer { _ = try? fixture.withSocket { $0.close() } }
        let payload = [UInt8](repeating: 1, count: 1 << 20)
        #expect(try fixture.withSocket { $0.write(payload) })
        close(fixture.peer.fd)
        try fixture.delegate.wait(for: "a failure") {
            if case .failed = $0 { return true }
            return false
        }
        #expect(try fixture.withSocket { $0.isClosed })
    }
}
