import Testing
@testable import FaultlineIO
import FaultlineTestSupport
#if canImport(Glibc)
import Glibc
#endif

@Suite("Outbound buffer", .timeLimit(.minutes(1)))
struct OutboundBufferTests {
    /// Reads whatever `fd` (non-blocking) has now.
    private func drain(_ fd: Int32) -> [UInt8] {
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { return received }
            received += chunk[0..<count]
        }
    }

    private func pattern(_ count: Int, seed: UInt64) -> [UInt8] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
    }

    @Test func aFullSocketTakesPartOfTheBufferAndTheRestFollowsInOrder() throws {
        let pair = try SocketPair()
        defer { close(pair.first); close(pair.second) }
        SocketPair.shrinkBuffers(pair.first, to: 4096)
        SocketPair.shrinkBuffers(pair.second, to: 4096)
        let payload = pattern(1 << 20, seed: 1)
        var buffer = OutboundBuffer()
        payload.withUnsafeBytes { buffer.append($0) }
        #expect(buffer.count == payload.count)

        #expect(buffer.flush { Sockets.write(pair.first, $0) } == nil)
        #expect(buffer.count > 0 && buffer.count < payload.count, "a small socket buffer takes part of 1 MiB")
        var received: [UInt8] = []
        var rounds = 0
        while !buffer.isEmpty && rounds < 100_000 {
            received += drain(pair.second)
            #expect(buffer.flush { Sockets.write(pair.first, $0) } == nil)
            rounds += 1
        }
        received += drain(pair.second)
        #expect(buffer.isEmpty)
        #expect(buffer.count == 0)
        #expect(received == payload)
    }

    @Test func bytesAppendedAfterAPartialFlushKeepTheirPlace() throws {
        let pair = try SocketPair()
        defer { close(pair.first); close(pair.second) }
        SocketPair.shrinkBuffers(pair.first, to: 4096)
        SocketPair.shrinkBuffers(pair.second, to: 4096)
        let first = pattern(300_000, seed: 2), second = pattern(300_000, seed: 3)
        var buffer = OutboundBuffer()
        first.withUnsafeBytes { buffer.append($0) }
        #expect(buffer.flush { Sockets.write(pair.first, $0) } == nil)
        let written = first.count - buffer.count
        #expect(written > 0)
        var received = drain(pair.second)
        // Appending compacts the storage once more than half of it has been written.
        second.withUnsafeBytes { buffer.append($0) }
        #expect(buffer.count == first.count + second.count - written)
        while !buffer.isEmpty {
            #expect(buffer.flush { Sockets.write(pair.first, $0) } == nil)
            received += drain(pair.second)
        }
        received += drain(pair.second)
        #expect(received == first + second)
    }

    @Test func aFlushToAClosedPeerReportsTheError() throws {
        let pair = try SocketPair()
        defer { close(pair.first) }
        close(pair.second)
        var buffer = OutboundBuffer()
        [UInt8](repeating: 7, count: 100).withUnsafeBytes { buffer.append($0) }
        let result = buffer.flush { Sockets.write(pair.first, $0) }
        let error = try #require(result)
        #expect(error.code == EPIPE)
        #expect(buffer.count == 100, "nothing was taken")
    }

    @Test func anEmptyBufferFlushesNothing() throws {
        let pair = try SocketPair()
        defer { close(pair.first); close(pair.second) }
        var buffer = OutboundBuffer()
        #expect(buffer.isEmpty)
        #expect(buffer.flush { Sockets.write(pair.first, $0) } == nil)
        #expect(drain(pair.second).isEmpty)
    }
}
