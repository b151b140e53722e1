import Foundation
import Testing
@testable import FaultlineProxy
import FaultlineTestSupport

/// The HTTP/2 upstream leg (`HTTP2UpstreamStream` on the loop's `HTTP2UpstreamConnection`)
/// behind the HTTP/1 host, through the host harness: relaying, faults that cut a streamed
/// response, and the rule that streams of one loop share one upstream connection.
@Suite("HTTP/2 upstream leg through the harness", .serialized, .timeLimit(.minutes(2)))
struct UpstreamHTTP2LegHostTests {
    static let shared = Result { () throws -> (TinyOrigin, HostHarness) in
        let origin = try TinyOrigin(h2c: true)
        let json = DownstreamConnectionHostTests.config(originPort: origin.port)
            .replacingOccurrences(of: #""origin": {"url": "http://127.0.0.1:\#(origin.port)"}"#,
                                  with: #""origin": {"url": "http://127.0.0.1:\#(origin.port)", "protocol": "h2c"}"#)
        return (origin, try HostHarness(configJSON: json))
    }

    let origin: TinyOrigin
    let harness: HostHarness

    init() throws {
        (origin, harness) = try Self.shared.get()
    }

    func exchange(_ path: String) throws -> (text: String, closed: Bool) {
        let client = try harness.connect()
        defer { client.close() }
        try client.send("GET \(path) HTTP/1.1\r\nHost: api.example\r\nConnection: close\r\n\r\n")
        let (bytes, closed) = client.readUntilClose(timeout: .seconds(10))
        return (String(decoding: bytes, as: UTF8.self), closed)
    }

    @Test func responsesComeBackOverStreamsOfOneUpstreamConnection() throws {
        for count in [10, 3000, 70_000] {
            let answer = try exchange("/plain/bytes/\(count)")
            #expect(answer.text.hasPrefix("HTTP/1.1 200 OK\r\n") && answer.closed)
            #expect(answer.text.hasSuffix("\r\n\r\n" + String(repeating: "x", count: count)), "\(count) bytes")
        }
        #expect(origin.connections == 1, "every stream went on the loop's one connection to the upstream")
    }

    @Test func cutsAndResetsEndTheClientSideOnly() throws {
        let cut = try exchange("/close1k/bytes/5000")
        #expect(cut.text.hasPrefix("HTTP/1.1 200 OK\r\n") && cut.closed)
        #expect(cut.text.hasSuffix("\r\n\r\n" + String(repeating: "x", count: 1000)))
        let reset = try exchange("/reset/json")
        #expect(reset.text.isEmpty && reset.closed)
        // The upstream connection survives both: a cut stream is cancelled, not the connection.
        let after = try exchange("/plain/bytes/10")
        #expect(after.text.hasSuffix("xxxxxxxxxx"))
        #expect(origin.connections == 1)
    }

    @Test func aStatusFaultNeverOpensAStream() throws {
        let answer = try exchange("/st503/json")
        #expect(answer.text.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n") && answer.text.hasSuffix("down"))
    }
}
