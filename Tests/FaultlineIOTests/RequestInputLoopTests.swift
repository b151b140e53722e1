import Testing
import FaultlineIO
import FaultlineMemoryIO

/// `RequestInputLoop`, the input side the admin API and the demo origin share, on the
/// in-memory transport with a toy protocol: each line is a request; a line starting with
/// `!` is answered at once (inside the decoding pass), any other waits for `answer()`.
@Suite("RequestInputLoop")
struct RequestInputLoopTests {
    /// A line server on one socket.
    final class LineServer: StreamSocketDelegate, RequestInputOwner {
        let socket: StreamSocket
        lazy var input = RequestInputLoop(socket: socket, owner: self, maxHeld: 16, outputHighWater: 1 << 20)
        /// The request being answered later, if any.
        var pending: String?
        /// Requests seen, in order.
        var seen: [String] = []
        var inputEndedCalls = 0

        init(_ socket: StreamSocket) {
            self.socket = socket
            socket.delegate = self
        }

        var canDecode: Bool { pending == nil && input.stage != .finished }

        func decode(_ bytes: UnsafeRawBufferPointer) -> Int {
            var used = 0
            while canDecode, let newline = bytes[used...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: bytes[used..<newline], as: UTF8.self)
                used = newline + 1
                seen.append(line)
                if line.hasPrefix("!") {
                    socket.write(Array("\(line) done\n".utf8))
                    // An answer written at once resumes inside the pass: it must not reorder.
                    input.resume()
                } else {
                    pending = line
                }
            }
            return used
        }

        func inputEnded() {
            inputEndedCalls += 1
            guard pending == nil else { return }
            input.finish()
            socket.closeGracefully()
        }

        /// Answers the pending request, then decodes what is held.
        func answer() {
            guard let line = pending else { return }
            pending = nil
            socket.write(Array("\(line) done\n".utf8))
            input.resume()
        }

        func socket(_ socket: StreamSocket, didRead bytes: UnsafeRawBufferPointer) { input.received(bytes) }
        func socketDidReadEOF(_ socket: StreamSocket) { input.peerEnded() }
        func socketDidDrain(_ socket: StreamSocket) { input.resume() }
        func socketDidConnect(_ socket: StreamSocket) {}
        func socket(_ socket: StreamSocket, didFail error: IOError) { input.finish() }
    }

    static func server(_ network: MemoryNetwork) -> (LineServer, MemoryEndpoint) {
        let (host, client) = network.connection()
        return (LineServer(StreamSocket(transport: host, loop: network.loop, peer: nil)), client)
    }

    /// Pipelined requests wait while one is answered and are decoded in order after it,
    /// answers written inside a pass included.
    @Test func pipelinedRequestsAreAnsweredInOrder() throws {
        let network = try MemoryNetwork()
        let (server, client) = Self.server(network)
        client.send("a\n!b\nc\n!d\n")
        network.run()
        #expect(server.seen == ["a"] && server.input.heldCount == 8)
        server.answer()
        network.run()
        #expect(server.seen == ["a", "!b", "c"])
        server.answer()
        network.run()
        #expect(String(decoding: client.receive(), as: UTF8.self) == "a done\n!b done\nc done\n!d done\n")
        #expect(server.input.heldCount == 0)
    }

    /// Reading pauses while more than `maxHeld` bytes wait and resumes once they are decoded.
    @Test func readingPausesWhileMuchIsHeld() throws {
        let network = try MemoryNetwork()
        let (server, client) = Self.server(network)
        client.send("first\n" + String(repeating: "x", count: 40) + "\n")
        network.run()
        #expect(server.input.heldCount == 41 && !server.socket.isReading)
        server.answer()
        network.run()
        #expect(server.seen.count == 2 && server.input.heldCount == 0 && server.socket.isReading)
    }

    /// The peer's end is reported once nothing is held; a request still being answered
    /// completes first.
    @Test func thePeersEndWaitsForHeldInputAndTheAnswer() throws {
        let network = try MemoryNetwork()
        let (server, client) = Self.server(network)
        client.send("a\nb\n")
        client.finish()
        network.run()
        #expect(server.input.stage == .inputEnded && server.inputEndedCalls == 0, "b is still held")
        server.answer()
        network.run()
        #expect(server.seen == ["a", "b"] && server.inputEndedCalls == 1)
        server.answer()
        network.run()
        #expect(String(decoding: client.receive(), as: UTF8.self) == "a done\nb done\n")
        #expect(client.peerEnd == .finished && server.input.stage == .finished && server.inputEndedCalls == 2)
    }
}
