import Foundation
import Testing
import FaultlineTestSupport

/// A listener accepts a connection with its first bytes (TCP_DEFER_ACCEPT) unless its
/// `defer_accept` is false. Seen from outside in the kernel's table of TCP sockets: the proxy's
/// end of a silent client's connection stays half open (SYN-RECV) until the client speaks or
/// answers the retransmitted SYN-ACK about a second later; with the option off it is
/// established at the handshake.
@Suite(.timeLimit(.minutes(1)))
struct DeferredAcceptTests {
    /// A state read sooner than this after the connect is before the kernel's first SYN-ACK
    /// retransmission (one second), which ends the deferral of a silent connection.
    private static let beforeRetransmission = Duration.milliseconds(800)

    @Test func aSilentClientStaysHalfOpenUntilItSpeaksThenIsServed() async throws {
        let stack = try await Self.stack()
        defer { stack.stop() }
        #expect(try await Self.statusAfterSilence(port: stack.port, proxyEnd: Self.synReceived) == 200)
    }

    @Test func aClientThatNeverSpeaksIsAcceptedAfterTheDeferralAndTimedOut() async throws {
        let stack = try await Self.stack(clientHeaderMs: 500)
        defer { stack.stop() }
        let port = stack.port
        let closed = try await Blocking.run { () throws -> Bool in
            let client = try RawClient(port: port, readTimeout: .seconds(15))
            defer { client.close() }
            // Accepted once it answers the retransmitted SYN-ACK, then closed by the header timeout.
            return client.readUntilClose(timeout: .seconds(15)).closed
        }
        #expect(closed, "a silent connection was never accepted and closed")
    }

    @Test func withDeferAcceptOffASilentClientIsEstablishedAtTheHandshake() async throws {
        let stack = try await Self.stack(deferAccept: false)
        defer { stack.stop() }
        #expect(try await Self.statusAfterSilence(port: stack.port, proxyEnd: Self.established) == 200)
    }

    @Test func deferAcceptMustBeABoolean() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("faultline.json", """
            {"listeners": [{"address": "127.0.0.1:0", "defer_accept": "yes"}],
             "upstreams": {"o": {"url": "http://127.0.0.1:9"}}, "routes": [{"name": "all", "upstream": "o"}]}
            """)
        let result = try await FaultlineProcess.command(["check-config", path])
        #expect(result.status != 0)
        #expect(result.output.contains("listeners[0].defer_accept"), "\(result.output)")
    }

    private static let synReceived = "03"
    private static let established = "01"

    /// The demo origin behind a proxy whose listener has `deferAccept` (nil: the default).
    private static func stack(deferAccept: Bool? = nil, clientHeaderMs: Int = 2000) async throws -> ProxyStack {
        try await ProxyStack.demo { port in
            var config = ProxyConfig.single(port: port)
            config.deferAccept = deferAccept
            config.clientHeaderMs = clientHeaderMs
            return config
        }
    }

    /// Connects, stays silent until the proxy's end is `proxyEnd`, then asks for 16 bytes: the status.
    private static func statusAfterSilence(port: Int, proxyEnd: String) async throws -> Int? {
        try await Blocking.run { () throws -> Int? in
            let client = try silentClient(port: port, expecting: proxyEnd)
            defer { client.close() }
            try client.send("GET /bytes/16 HTTP/1.1\r\nHost: a\r\n\r\n")
            return client.readResponses(1).responses.first?.status
        }
    }

    /// Connects without sending and reads the state of the proxy's end of the connection until
    /// it is `expected`, before the first SYN-ACK retransmission could have changed it. A read
    /// that came later than that (a stalled machine) proves nothing either way: the probe is
    /// made again on a new connection, at most three times.
    private static func silentClient(port: Int, expecting expected: String) throws -> RawClient {
        let clock = ContinuousClock()
        var seen: [String] = []
        for _ in 0..<3 {
            let start = clock.now
            let client = try RawClient(port: port)
            var state: String?
            while clock.now - start < beforeRetransmission {
                state = serverState(proxyPort: port, clientPort: client.localPort)
                if state == expected { return client }
                usleep(10_000)
            }
            seen.append(state ?? "absent")
            client.close()
        }
        throw TestFailure("the proxy's end of a silent connection was \(seen) (hex states of /proc/net/tcp), not \(expected), "
            + "in the first \(beforeRetransmission) of three connections")
    }

    /// The state (two hex digits, as /proc/net/tcp writes it) of the socket whose local port is
    /// `proxyPort` and remote port `clientPort`: the proxy's end of one client connection.
    private static func serverState(proxyPort: Int, clientPort: Int) -> String? {
        // Read to the end: the file has no size to go by, and a read that trusted one would stop
        // at the first page, before the rows of a busy machine's later sockets.
        guard let handle = FileHandle(forReadingAtPath: "/proc/net/tcp") else { return nil }
        defer { try? handle.close() }
        guard let bytes = try? handle.readToEnd() else { return nil }
        let table = String(decoding: bytes, as: UTF8.self)
        let local = String(format: ":%04X", proxyPort)
        let remote = String(format: ":%04X", clientPort)
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count > 3, fields[1].hasSuffix(local), fields[2].hasSuffix(remote) else { continue }
            return String(fields[3])
        }
        return nil
    }
}
