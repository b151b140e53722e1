import Foundation
import Testing
import FaultlineTestSupport

/// A `Connection` header may not remove the framing the proxy computed: a request that names
/// Content-Length, Transfer-Encoding or Host in it is refused (400) before anything reaches
/// the upstream, a response that does is a bad gateway (502), and a client sharing the pooled
/// upstream connection never sees a byte of what another client tried to smuggle.
@Suite(.timeLimit(.minutes(2)))
struct SmugglingTests {
    static let smuggled = "GET /smuggled HTTP/1.1\r\nHost: a\r\n\r\n"

    static let attacks: [(String, String)] = [
        ("Connection: content-length",
         "POST /attack HTTP/1.1\r\nHost: a\r\nConnection: content-length\r\nContent-Length: \(smuggled.utf8.count)\r\n\r\n\(smuggled)"),
        ("Connection: keep-alive, Content-Length (mixed case, in a list)",
         "POST /attack HTTP/1.1\r\nHost: a\r\nConnection: keep-alive, Content-Length\r\nContent-Length: \(smuggled.utf8.count)\r\n\r\n\(smuggled)"),
        ("Connection listed twice, second names Content-Length",
         "POST /attack HTTP/1.1\r\nHost: a\r\nConnection: keep-alive\r\nContent-Length: \(smuggled.utf8.count)\r\nConnection: Content-Length\r\n\r\n\(smuggled)"),
        ("Connection: transfer-encoding",
         "POST /attack HTTP/1.1\r\nHost: a\r\nConnection: transfer-encoding\r\nTransfer-Encoding: chunked\r\n\r\n"
            + String(smuggled.utf8.count, radix: 16) + "\r\n\(smuggled)\r\n0\r\n\r\n"),
        ("Connection: host", "GET /attack HTTP/1.1\r\nHost: a\r\nConnection: host\r\n\r\n"),
    ]

    @Test func connectionNamingFramingIsRefusedAndNothingIsSmuggled() async throws {
        let stack = try await HostileStack.start()
        defer { stack.stop() }
        let port = stack.port
        for (index, (name, attack)) in Self.attacks.enumerated() {
            // The victim's first request leaves an idle upstream connection in the (single) pool.
            let first = try await stack.exchange("GET /victim-\(index)-a HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(first.parsed.first?.status == 200)
            let refused = try await Blocking.run {
                let client = try RawClient(port: port)
                defer { client.close() }
                try client.send(attack)
                return HostileStack.read(client, responses: 2)
            }
            #expect(refused.parsed.first?.status == 400, "\(name): got \(String(decoding: refused.bytes, as: UTF8.self).debugDescription)")
            #expect(refused.parsed.count == 1, "\(name): more than one response for one request")
            // The next client on the pooled connection gets its own answer, never the smuggled one's.
            let second = try await stack.exchange("GET /victim-\(index)-b HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(second.parsed.first?.status == 200)
            #expect(second.parsed.first?.text.contains("\"/victim-\(index)-b\"") == true,
                    "\(name): the next client got \(second.parsed.first?.text.debugDescription ?? "nothing")")
            // ...and it came over the very upstream connection the attack would have poisoned.
            let before = try await stack.origin.connection(of: "/victim-\(index)-a")
            let after = try await stack.origin.connection(of: "/victim-\(index)-b")
            #expect(before == after, "\(name): the pooled connection was not reused (conn \(before) then \(after))")
        }
        let requests = stack.origin.requests
        #expect(!requests.contains { $0.contains("/smuggled") }, "smuggled request reached the upstream: \(requests)")
        #expect(!requests.contains { $0.contains("/attack") }, "refused request reached the upstream: \(requests)")
    }

    @Test func responseCodingsSurviveReframing() async throws {
        let stack = try await HostileStack.start()
        defer { stack.stop() }
        let answer = try await stack.exchange("GET /r/gzip-chunked HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(answer.parsed.first?.header("transfer-encoding") == "gzip, chunked",
                "\(String(decoding: answer.bytes, as: UTF8.self).debugDescription)")
        #expect(answer.parsed.first?.text == "hello")
    }

    @Test(arguments: ["connection-cl", "connection-te", "connection-host", "chunked-gzip"])
    func responseWithAmbiguousFramingIsBadGateway(_ name: String) async throws {
        let stack = try await HostileStack.start()
        defer { stack.stop() }
        let answer = try await stack.exchange("GET /r/\(name) HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(answer.parsed.first?.status == 502, "\(name): got \(String(decoding: answer.bytes, as: UTF8.self).debugDescription)")
        #expect(try await stack.stillServes())
    }

    @Test func framingHeadersAreWrittenFromTheComputedFraming() async throws {
        let stack = try await HostileStack.start()
        defer { stack.stop() }
        // A length-delimited body arrives upstream with exactly one Content-Length, the one computed.
        let sized = try await stack.exchange("POST /sized HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello")
        let sizedSeen = try #require(sized.parsed.first).text
        #expect(sizedSeen.contains("[\"Content-Length\", \"5\"]"), "\(sizedSeen)")
        #expect(sizedSeen.contains("\"body\": \"hello\""), "\(sizedSeen)")
        // A chunked body is re-chunked: one Transfer-Encoding, no Content-Length.
        let chunked = try await stack.exchange("POST /chunked HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n")
        let chunkedSeen = try #require(chunked.parsed.first).text.lowercased()
        #expect(chunkedSeen.components(separatedBy: "transfer-encoding").count == 2, "\(chunkedSeen)")
        #expect(!chunkedSeen.contains("content-length"), "\(chunkedSeen)")
        // Codings other than chunked stay, in front of the chunked the proxy applies again.
        let gzip = try await stack.exchange("POST /gzip HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n")
        let gzipSeen = try #require(gzip.parsed.first).text
        #expect(gzipSeen.contains("[\"Transfer-Encoding\", \"gzip, chunked\"]"), "\(gzipSeen)")
        // An explicitly empty body keeps its Content-Length: 0.
        let empty = try await stack.exchange("POST /empty HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n")
        #expect(try #require(empty.parsed.first).text.contains("[\"Content-Length\", \"0\"]"))
    }
}
