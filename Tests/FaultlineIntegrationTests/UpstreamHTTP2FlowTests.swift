import Foundation
import Testing
import FaultlineTestSupport

/// Flow control on the upstream connection: a client that does not read holds its own
/// stream's window only.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct UpstreamHTTP2FlowTests {
    @Test func aStalledClientHoldsOnlyItsOwnStream() async throws {
        let origin = try await H2Origin.start()
        defer { origin.kill() }
        // The held stream is silent on purpose: a long response timeout keeps a loaded runner
        // from turning the stall into an upstream timeout.
        let upstream = H2UpstreamStack.h2cUpstream(port: origin.port, extra: ["timeouts_ms": ["connect": 2000, "response": 60_000]])
        let proxy = try await H2UpstreamStack.proxy(upstream: upstream)
        defer { proxy.kill() }
        let size = 24_000_000
        let rssBefore = try #require(ProcessMemory.residentKiB(proxy.process.child.pid))
        let stalled = try RawClient(port: proxy.port, readTimeout: .seconds(1))
        defer { stalled.close() }
        try stalled.send("GET /bytes/\(size) HTTP/1.1\r\nHost: h2\r\nConnection: close\r\n\r\n")
        _ = try await origin.output.waitForLine(containing: "request GET /bytes/\(size)", timeout: .seconds(5))
        try await Task.sleep(for: .milliseconds(2000))
        // The stream's window (1 MiB by default) bounds what waits in the proxy for this
        // client; without it the whole body would pile up in the proxy's memory.
        let rssStalled = try #require(ProcessMemory.residentKiB(proxy.process.child.pid))
        #expect(rssStalled - rssBefore < 12 * 1024, "resident memory grew by \(rssStalled - rssBefore) KiB")
        // Another exchange on the same upstream connection goes through while the first client
        // reads nothing (24 MB is more than the connection window). Were the stalled stream
        // holding the connection's window, this one would wait until that client reads, which
        // it does only below: it would never finish. The bound only has to tell "finishes" from
        // "never"; it is loose because the Python origin is slow on a loaded runner (8.5 s seen).
        let started = ContinuousClock.now
        let fast = try await Curl.run(["-sS", "--max-time", "40", proxy.url("/bytes/3000000")])
        #expect(fast.stdout.count == 3_000_000, "\(fast.stderr)")
        #expect(ContinuousClock.now - started < .seconds(30))
        #expect(H2UpstreamStack.connections(origin).count == 1, "\(origin.output.text)")
        // The stalled client then gets its whole body, intact.
        let body = try await Blocking.run { stalled.readUntilClose(timeout: .seconds(30)) }
        let expected = (0..<size).map { UInt8($0 % 251) }
        let text = body.bytes.prefix(200)
        guard let split = body.bytes.firstRange(of: Array("\r\n\r\n".utf8)) else {
            Issue.record("no response head: \(String(decoding: text, as: UTF8.self))")
            return
        }
        let received = Array(body.bytes[split.upperBound...])
        #expect(received.count == size && received == expected)
    }
}
