import Foundation
import Testing
import FaultlineTestSupport

/// Responses that reach the proxy together, on connections that close after them, arrive
/// whole and in order before the close; a client that stops reading stops the upstream.
@Suite(.timeLimit(.minutes(1)))
struct ResponseDeliveryTests {
    /// Byte `i` of the demo origin's `/bytes/N` body.
    static func pattern(_ count: Int) -> [UInt8] { (0..<count).map { UInt8($0 % 251) } }

    @Test func connectionCloseRequestsSentTogetherEachGetTheirWholeResponseThenTheClose() async throws {
        let stack = try await ProxyStack.demo()
        defer { stack.stop() }
        let port = stack.port
        // From empty to several reads' worth.
        let sizes = [0, 64, 16_383, 16_384, 16_385, 100_000]
        let failures = try await Blocking.run { () throws -> [String] in
            // Every request goes out before any response is read, so that the proxy sees
            // several responses in one turn of its loop.
            let clients = try (0..<60).map { index -> (RawClient, Int) in
                let client = try RawClient(port: port, readTimeout: .seconds(10))
                let size = sizes[index % sizes.count]
                try client.send("GET /bytes/\(size) HTTP/1.1\r\nHost: demo\r\nConnection: close\r\n\r\n")
                return (client, size)
            }
            var failures: [String] = []
            for (index, (client, size)) in clients.enumerated() {
                let reply = client.readUntilClose(timeout: .seconds(10))
                let responses = HTTPResponseParser.parse(reply.bytes, closed: reply.closed)
                if !reply.closed { failures.append("client \(index) (\(size) bytes): no close after \(reply.bytes.count) bytes") }
                guard responses.count == 1, let response = responses.first else {
                    failures.append("client \(index) (\(size) bytes): \(responses.count) responses in \(reply.bytes.count) bytes")
                    continue
                }
                if response.status != 200 || response.body != Self.pattern(size) {
                    failures.append("client \(index) (\(size) bytes): status \(response.status), \(response.body.count) body bytes")
                }
            }
            return failures
        }
        #expect(failures.isEmpty, "\(failures)")
    }

    @Test func pipelinedRequestsEndingInACloseGetEveryResponseInOrderThenTheClose() async throws {
        let stack = try await ProxyStack.demo()
        defer { stack.stop() }
        let port = stack.port
        let sizes = [10, 20_000, 30, 40]
        let requests = sizes.enumerated().map { index, size in
            "GET /bytes/\(size) HTTP/1.1\r\nHost: demo\r\n\(index == sizes.count - 1 ? "Connection: close\r\n" : "")\r\n"
        }
        let reply = try await Blocking.run { () throws -> (bytes: [UInt8], closed: Bool) in
            let clients = try (0..<20).map { _ in try RawClient(port: port, readTimeout: .seconds(10)) }
            for client in clients { try client.send(requests.joined()) }
            var last: (bytes: [UInt8], closed: Bool) = ([], false)
            for client in clients {
                let reply = client.readUntilClose(timeout: .seconds(10))
                let bodies = HTTPResponseParser.parse(reply.bytes, closed: reply.closed).map(\.body)
                // The first reply that differs is the one reported.
                if !reply.closed || bodies != sizes.map(Self.pattern) { return reply }
                last = reply
            }
            return last
        }
        let responses = HTTPResponseParser.parse(reply.bytes, closed: reply.closed)
        #expect(reply.closed)
        #expect(responses.map(\.body.count) == sizes)
        #expect(responses.map(\.body) == sizes.map(Self.pattern))
    }

    /// An origin that streams 1,000-byte chunks as fast as it can until the peer goes, and
    /// logs how much it has sent at each MiB.
    static let streamingOrigin = PythonOriginPrelude.source + #"""
def handle(sock, n):
    conn = Conn(sock, n)
    conn.line()
    fields(conn)
    sock.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n")
    chunk = b"3e8\r\n" + b"x" * 1000 + b"\r\n"
    sent = 0
    while True:
        sock.sendall(chunk)
        sent += 1000
        if sent % 1048000 == 0:
            log("conn %d sent %d" % (n, sent))

serve(handle)
"""#

    @Test func aClientThatStopsReadingStopsTheUpstreamAndResumesIt() async throws {
        let origin = try await OriginProcess.python(Self.streamingOrigin)
        let stack = try await ProxyStack.start(origin: origin)
        defer { stack.stop() }
        let port = stack.port
        let pid = stack.proxy.child.pid
        let client = try await Blocking.run { () throws -> RawClient in
            let client = try RawClient(port: port, readTimeout: .seconds(10))
            try client.send("GET /stream HTTP/1.1\r\nHost: origin\r\n\r\n")
            _ = client.read(until: "\r\n\r\n")
            return client
        }
        defer { client.close() }
        let before = try #require(ProcessMemory.residentKiB(pid))
        // The client reads nothing now: the kernel's buffers fill, then the proxy's, and the
        // proxy must stop reading the upstream. Unchecked, the origin would pour hundreds of
        // MiB into the proxy in these two seconds.
        try await Task.sleep(for: .seconds(2))
        let stalledLines = origin.output.lines.count
        let sentWhileStalled = Self.lastSent(origin.output.text)
        let grown = try #require(ProcessMemory.residentKiB(pid)) - before
        #expect(sentWhileStalled < 64 << 20, "the origin sent \(sentWhileStalled) bytes to a proxy whose client reads nothing")
        // Roomy for a sanitizer's build (freed memory held in quarantine, shadow memory):
        // unchecked, the growth is hundreds of MiB.
        #expect(grown < 64 * 1024, "the proxy's resident memory grew by \(grown) KiB")
        // Reading again lets the stream go on: 8 MiB more arrive, and the origin is sending again.
        let read = try await Blocking.run { () -> Int in
            var total = 0
            while total < 8 << 20, case .bytes(let bytes) = client.readSome() { total += bytes.count }
            return total
        }
        #expect(read >= 8 << 20)
        let resumed = try await origin.output.waitForLine(containing: "sent ", after: stalledLines, timeout: .seconds(10))
        #expect(resumed.text.contains("conn 1 sent"))
    }

    static func lastSent(_ log: String) -> Int {
        log.split(separator: "\n").last { $0.contains(" sent ") }
            .flatMap { $0.split(separator: " ").last.flatMap { Int($0) } } ?? 0
    }
}
