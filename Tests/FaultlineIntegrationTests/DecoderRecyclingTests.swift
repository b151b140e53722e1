import Foundation
import Testing
import FaultlineTestSupport

/// A closed HTTP/1 connection's request decoder goes to the next connection the loop
/// accepts. Whatever a client left half-sent when it went (a cut request line, half a field,
/// a body, a refused head, a large head), the next client's request reaches the origin as it
/// sent it, and nothing of the earlier one does. One worker, so every connection shares one
/// loop and so one pool of decoders; each leftover connection is over (the proxy closed it)
/// before the next one opens.
@Suite(.timeLimit(.minutes(2)))
struct DecoderRecyclingTests {
    static let leftovers: [(name: String, bytes: String)] = [
        ("request line", "GET /leftover-target-"),
        ("field name", "GET /leftover HTTP/1.1\r\nHost: leftover.test\r\nX-Leftover-Na"),
        ("field value", "GET /leftover HTTP/1.1\r\nHost: leftover.test\r\nX-Leftover: secret-value-"),
        ("head without its blank line", "GET /leftover HTTP/1.1\r\nHost: leftover.test\r\nX-Leftover: secret\r\n"),
        ("chunked body", "POST /leftover-chunked HTTP/1.1\r\nHost: leftover.test\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab"),
        ("refused head", "GET /leftover HTTP/1.1\r\nHost: leftover.test\r\n: empty name\r\n\r\n"),
        ("large head", "GET /leftover HTTP/1.1\r\nHost: leftover.test\r\n"
            + (0..<60).map { "X-Leftover-\($0): \(String(repeating: "v", count: 90))\r\n" }.joined()),
    ]

    @Test func theNextConnectionsRequestArrivesAsItsClientSentIt() async throws {
        let stack = try await HostileStack.start()
        defer { stack.stop() }
        let port = stack.port
        for (index, leftover) in Self.leftovers.enumerated() {
            let closed = try await Blocking.run {
                let client = try RawClient(port: port)
                defer { client.close() }
                try client.send(leftover.bytes)
                client.shutdownWrite()
                return client.readUntilClose(timeout: .seconds(25)).closed
            }
            #expect(closed, "\(leftover.name): the proxy kept the connection open after the client's FIN")
            for probe in 0..<2 {
                let target = "/after-\(index)-\(probe)"
                let answer = try await stack.exchange("GET \(target) HTTP/1.1\r\nHost: after.test\r\nX-Probe: \(index)-\(probe)\r\n\r\n")
                let response = answer.parsed.first
                #expect(response?.status == 200, "after a \(leftover.name): \(String(decoding: answer.bytes, as: UTF8.self))")
                let seen = response?.text ?? ""
                #expect(seen.contains("\"\(target)\""), "after a \(leftover.name), the origin saw another target: \(seen)")
                #expect(seen.contains("X-Probe") && seen.contains("\(index)-\(probe)"), "after a \(leftover.name): \(seen)")
                #expect(!seen.lowercased().contains("leftover"), "after a \(leftover.name), the origin saw its bytes: \(seen)")
            }
        }
        let after = stack.origin.requests.filter { $0.contains("/after-") }
        #expect(after.count == Self.leftovers.count * 2, "\(stack.origin.requests)")
        #expect(!after.contains { $0.lowercased().contains("leftover") }, "\(after)")
    }
}
