import Foundation
import Testing
import FaultlineIO
#if canImport(Glibc)
import Glibc
#endif

/// `BlockingIO`, the blocking client the CLI and the TLS probe use: every address tried,
/// a refusal told apart, a request written whole and the answer read to the peer's close.
@Suite("Blocking I/O", .timeLimit(.minutes(1)))
struct BlockingIOTests {
    @Test func aRefusedPortIsReportedAsRefusedWithItsAddress() throws {
        // Bound and closed: nothing listens on the port now.
        let listener = try Sockets.listen(on: try #require(SocketAddress(ip: "127.0.0.1", port: 0)), reusePort: false)
        let port = try #require(Sockets.localAddress(of: listener)).port
        Sockets.close(listener)
        do {
            _ = try BlockingIO.connect(host: "127.0.0.1", port: port, timeoutMs: 5_000)
            Issue.record("connected to a closed port")
        } catch {
            guard case .connect(let attempts) = error else { Issue.record("\(error)"); return }
            #expect(attempts.map(\.address) == ["127.0.0.1:\(port)"])
            #expect(attempts.allSatisfy { $0.refused && !$0.timedOut })
            #expect(attempts.first?.reason == "Connection refused")
        }
    }

    @Test func aWholeExchange() throws {
        let listener = try Sockets.listen(on: try #require(SocketAddress(ip: "127.0.0.1", port: 0)), reusePort: false)
        defer { Sockets.close(listener) }
        let port = try #require(Sockets.localAddress(of: listener)).port
        let connected = try BlockingIO.connect(host: "127.0.0.1", port: port, timeoutMs: 5_000)
        defer { try? BlockingIO.close(connected.fd) }
        #expect(connected.address == "127.0.0.1:\(port)")
        try BlockingIO.writeAll(connected.fd, Array("ping".utf8), socket: true)
        // The listener is non-blocking: wait for the connection, answer, close.
        var accepted: Int32 = -1
        let deadline = Date().addingTimeInterval(10)
        while accepted < 0 && Date() < deadline {
            if let pair = try Sockets.accept(listener) { accepted = pair.fd } else { usleep(1_000) }
        }
        #expect(accepted >= 0)
        guard accepted >= 0 else { return }
        // Read the request first: closing with unread bytes would send a reset.
        var request: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while request.count < 4 && Date() < deadline {
            switch buffer.withUnsafeMutableBytes({ Sockets.read(accepted, into: $0) }) {
            case .bytes(let count): request += buffer[0..<count]
            case .wouldBlock: usleep(1_000)
            case .endOfFile, .failed: Issue.record("the request did not arrive"); return
            }
        }
        #expect(request == Array("ping".utf8))
        try BlockingIO.writeAll(accepted, Array("pong".utf8), socket: true)
        Sockets.close(accepted)
        #expect(try BlockingIO.readToEnd(connected.fd) == Array("pong".utf8))
    }

    @Test func anUnresolvableNameSaysSo() {
        do {
            _ = try BlockingIO.connect(host: "no-such-host.invalid", port: 80, timeoutMs: 2_000)
            Issue.record("resolved .invalid")
        } catch {
            guard case .resolve(let why) = error else { Issue.record("\(error)"); return }
            #expect(!why.isEmpty)
        }
    }
}
