import Foundation
import Testing
@testable import FaultlineProxy
import FaultlineTestSupport

/// `DownstreamConnection`, the HTTP/1 host, driven through the host harness: request bytes
/// in, the exact response bytes (or the close) out, for every fault kind, with an in-process
/// origin behind it; and the pool's rules seen from the origin's connection count.
@Suite("HTTP/1 host through the harness", .serialized, .timeLimit(.minutes(2)))
struct DownstreamConnectionHostTests {
    /// One route per fault kind (`/<name>/…`), all to the same origin.
    static let faults: [(name: String, fault: String)] = [
        ("st503", #"{"status": {"code": 503, "headers": {"Retry-After": "5"}, "body": "down", "content_type": "text/html"}}"#),
        ("st204", #"{"status": 204}"#),
        ("reset", #"{"reset": {}}"#),
        ("reset1k", #"{"reset": {"after_bytes": 1000}}"#),
        ("close", #"{"close": {}}"#),
        ("close1k", #"{"close": {"after_bytes": 1000}}"#),
        ("truncate", #"{"truncate": {"keep_bytes": 100}}"#),
        ("hangclose", #"{"hang": {"ms": 50, "then": "close"}}"#),
        ("delay", #"{"delay": 20}"#),
        ("throttle", #"{"throttle": {"down_bytes_per_second": 200000}}"#),
        ("rewrite", #"{"rewrite": {"status": 418, "add_headers": {"X-Rewritten": "yes"}}}"#),
        ("garbage", #"{"corrupt": {"mode": "garbage_then_close"}}"#),
        ("chunked", #"{"corrupt": {"mode": "bad_chunk_framing"}}"#),
        ("json", #"{"corrupt": {"mode": "malformed_json"}}"#),
        ("rst", #"{"rst_stream": {}}"#),
        ("goaway", #"{"goaway": {"mode": "immediate"}}"#),
        ("graceful", #"{"goaway": {"mode": "graceful"}}"#),
    ]

    static func config(originPort: Int) -> String {
        let routes = faults.map { #"{"name": "\#($0.name)", "match": {"path_prefix": "/\#($0.name)/"}, "upstream": "origin", "faults": [\#($0.fault)]}"# }
        return #"""
        {"listeners": [{"address": "127.0.0.1:0"}],
         "upstreams": {"origin": {"url": "http://127.0.0.1:\#(originPort)"},
                       "nowhere": {"url": "http://127.0.0.1:1"}},
         "routes": [\#(routes.joined(separator: ",\n")),
                    {"name": "down", "match": {"path_prefix": "/down/"}, "upstream": "nowhere"},
                    {"name": "plain", "match": {"path_prefix": "/"}, "upstream": "origin"}],
         "log": {"off": true}}
        """#
    }

    /// One origin and one harness for the suite (see `HostHarness`).
    static let shared = Result { () throws -> (TinyOrigin, HostHarness) in
        let origin = try TinyOrigin()
        return (origin, try HostHarness(configJSON: config(originPort: origin.port)))
    }

    let origin: TinyOrigin
    let harness: HostHarness

    init() throws {
        (origin, harness) = try Self.shared.get()
    }

    /// One request on a fresh connection; everything the client got until the host closed.
    func exchange(_ path: String, closing: Bool = true) throws -> (text: String, bytes: [UInt8], closed: Bool) {
        let client = try harness.connect()
        defer { client.close() }
        try client.send("GET \(path) HTTP/1.1\r\nHost: api.example\r\n\(closing ? "Connection: close\r\n" : "")\r\n")
        let (bytes, closed) = client.readUntilClose(timeout: .seconds(10))
        // The request id is random: its line is left out of `text` (it is in `bytes`).
        let text = String(decoding: bytes, as: UTF8.self)
            .replacingOccurrences(of: #"X-Request-ID: [0-9a-f]+\r\n"#, with: "", options: .regularExpression)
        return (text, bytes, closed)
    }

    @Test func aRequestIsRelayedWithTheOriginsBody() throws {
        let answer = try exchange("/plain/bytes/10")
        #expect(answer.text.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(answer.text.hasSuffix("\r\n\r\nxxxxxxxxxx"))
        #expect(answer.closed)
    }

    @Test func aStatusFaultIsAnsweredWithoutTheOrigin() throws {
        let before = origin.connections
        let answer = try exchange("/st503/json")
        #expect(answer.text == "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/html\r\nContent-Length: 4\r\n"
                + "Retry-After: 5\r\nX-Faultline-Fault: st503/status\r\nConnection: close\r\n\r\ndown", "\(answer.text)")
        #expect(origin.connections == before, "a status fault never contacts the origin")
        let noContent = try exchange("/st204/json")
        #expect(noContent.text.hasPrefix("HTTP/1.1 204 No Content\r\n"))
        #expect(!noContent.text.contains("Content-Length"))
    }

    @Test func resetAndCloseEndTheConnectionWithNothingOrPartOfTheBody() throws {
        for path in ["/reset/json", "/close/json", "/rst/json", "/goaway/json"] {
            let answer = try exchange(path)
            #expect(answer.bytes.isEmpty && answer.closed, "\(path): \(answer.text)")
        }
        for path in ["/reset1k/bytes/5000", "/close1k/bytes/5000"] {
            let answer = try exchange(path)
            let body = answer.bytes.split(separator: Array("\r\n\r\n".utf8)).last.map(Array.init) ?? []
            #expect(answer.text.hasPrefix("HTTP/1.1 200 OK\r\n") && answer.closed, "\(path)")
            #expect(answer.text.contains("Content-Length: 5000\r\n"), "\(path)")
            #expect(body.count == 1000, "\(path): \(body.count) body bytes")
        }
    }

    @Test func truncateKeepsItsBytesAndHangEndsInAClose() throws {
        let truncated = try exchange("/truncate/bytes/5000")
        #expect(truncated.text.hasPrefix("HTTP/1.1 200 OK\r\n") && truncated.closed)
        #expect(truncated.text.hasSuffix("\r\n\r\n" + String(repeating: "x", count: 100)), "\(truncated.text.suffix(120))")
        let hung = try exchange("/hangclose/json")
        #expect(hung.bytes.isEmpty && hung.closed)
    }

    @Test func delayAndThrottleDeliverTheWholeResponse() throws {
        for path in ["/delay/bytes/3000", "/throttle/bytes/3000"] {
            let answer = try exchange(path)
            #expect(answer.text.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(path)")
            #expect(answer.text.hasSuffix("\r\n\r\n" + String(repeating: "x", count: 3000)), "\(path)")
        }
    }

    @Test func rewriteChangesTheRelayedHead() throws {
        let answer = try exchange("/rewrite/json")
        #expect(answer.text.hasPrefix("HTTP/1.1 418 "), "\(answer.text)")
        #expect(answer.text.contains("\r\nX-Rewritten: yes\r\n"))
        #expect(answer.text.hasSuffix(#"{"ok":true}"#))
    }

    @Test func corruptRepliesAreNotHTTPOrBreakTheirFraming() throws {
        let garbage = try exchange("/garbage/json")
        #expect(garbage.bytes == OwnResponse.garbage.body && garbage.closed)
        let chunked = try exchange("/chunked/json")
        #expect(chunked.text == "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
                + "X-Faultline-Fault: chunked/corrupt\r\n\r\n6\r\n{\"ok\":\r\nzz-not-a-chunk-size\r\n", "\(chunked.text)")
        let json = try exchange("/json/json")
        #expect(json.text.hasPrefix("HTTP/1.1 200 OK\r\n") && json.text.hasSuffix(#"<"ok":true}"#), "\(json.text)")
    }

    @Test func aGracefulGoAwayAnswersAndCloses() throws {
        let answer = try exchange("/graceful/json", closing: false)
        #expect(answer.text.hasPrefix("HTTP/1.1 200 OK\r\n") && answer.text.contains("\r\nConnection: close\r\n"), "\(answer.text)")
        #expect(answer.closed)
    }

    @Test func anUnreachableUpstreamIsALocal502() throws {
        let answer = try exchange("/down/json")
        #expect(answer.text.hasPrefix("HTTP/1.1 502 Bad Gateway\r\n"), "\(answer.text)")
        #expect(answer.text.contains("\r\nServer: faultline\r\n"))
    }

    /// The pool: a keep-alive client's second request reuses the origin connection its first
    /// left clean; a response cut short leaves its connection out of the pool.
    @Test func aCleanConnectionIsReusedAndACutOneIsNot() throws {
        // Whatever earlier tests left in the pool goes first: a fresh origin connection each.
        let base = origin.connections
        let client = try harness.connect()
        defer { client.close() }
        try client.send("GET /plain/bytes/10 HTTP/1.1\r\nHost: api.example\r\n\r\n")
        #expect(client.readResponses(1).responses.first?.status == 200)
        try client.send("GET /plain/bytes/20 HTTP/1.1\r\nHost: api.example\r\n\r\n")
        #expect(client.readResponses(1).responses.first?.body.count == 20)
        let afterTwo = origin.connections
        #expect(afterTwo - base <= 1, "the second request went on the pooled connection")

        let cut = try exchange("/close1k/bytes/5000")
        #expect(cut.closed)
        #expect(origin.connections == afterTwo, "the cut exchange took the pooled connection")
        let after = try exchange("/plain/bytes/10")
        #expect(after.text.hasSuffix("xxxxxxxxxx"))
        #expect(origin.connections == afterTwo + 1, "the cut connection was not pooled again")
    }
}
