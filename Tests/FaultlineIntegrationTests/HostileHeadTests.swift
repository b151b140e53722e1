import Foundation
import Testing
import FaultlineTestSupport

/// Heads a peer can send that must never crash the proxy or be forwarded: integer extremes,
/// malformed Host values, empty names, folded lines, h2c upgrade offers, prohibited trailers,
/// and responses whose framing contradicts their status. Each goes through the real binary.
@Suite(.timeLimit(.minutes(2)))
struct HostileHeadTests {
    /// Expects `answer` to be a single `status` response whose body says `reason`, on a closed connection.
    private func expectRefused(_ answer: (bytes: [UInt8], parsed: [ParsedResponse], closed: Bool), status: Int,
                               reason: String? = nil, _ what: String) {
        let response = answer.parsed.first
        #expect(response?.status == status, "\(what): got \(String(decoding: answer.bytes, as: UTF8.self).debugDescription)")
        if let reason {
            #expect(response?.text.contains(reason) == true, "\(what): body \(response?.text.debugDescription ?? "none")")
        }
        #expect(answer.closed, "\(what): connection left open after a refused head")
    }

    // MARK: Defect 1: integers from the peer

    @Test func hostPortExtremesAreRefusedAndTheProxyKeepsServing() async throws {
        let stack = try await HostileStack.start()
        defer { stack.stop() }
        let hosts = ["a:-9223372036854775808", "a:9223372036854775807", "a:9223372036854775808", "a:-1", "a:65536",
                     "a:99999999999999999999999999", "a:0", "a:+80", "a:8o"]
        for host in hosts {
            let answer = try await stack.exchange("GET /port HTTP/1.1\r\nHost: \(host)\r\n\r\n", untilClose: true)
            expectRefused(answer, status: 400, reason: "invalid Host header", "Host: \(host)")
            #expect(try await stack.stillServes(), "proxy stopped serving after Host: \(host)")
        }
        // The absolute form carries an authority too; it is logged like a Host header.
        let absolute = try await stack.exchange("GET http://a:-9223372036854775808/p HTTP/1.1\r\nHost: a\r\n\r\n", untilClose: true)
        expectRefused(absolute, status: 400, "absolute-form target with a negative port")
        #expect(try await stack.stillServes(), "proxy stopped serving after an absolute-form target with a negative port")
        #expect(!stack.origin.requests.contains { $0.contains("/port") || $0.contains(" /p ") },
                "a refused request reached the origin: \(stack.origin.requests)")
    }

    @Test func validHostsStillPass() async throws {
        let stack = try await HostileStack.start()
        defer { stack.stop() }
        for host in ["a", "a:8080", "a:65535", "127.0.0.1:80", "[::1]:8080", "[::1]", "xn--bcher-kva.example", "a_b.test",
                     "a.test."] {
            let answer = try await stack.exchange("GET /valid HTTP/1.1\r\nHost: \(host)\r\n\r\n")
            #expect(answer.parsed.first?.status == 200, "Host: \(host) refused: \(String(decoding: answer.bytes, as: UTF8.self))")
        }
    }

    // MARK: Defect 5: head validation (requests → 400)

    @Test func malformedHostValuesAreRefused() async throws {
        let stack = try await HostileStack.start()
        defer { stack.stop() }
        for host in ["a b", "a/b", "a?b", "a#b", "user@a", "a\\b", "[::1", "a:80:80", "a]b", "a\"b", "a<b", ""] {
            let answer = try await stack.exchange("GET /bad-host HTTP/1.1\r\nHost: \(host)\r\n\r\n", untilClose: true)
            expectRefused(answer, status: 400, reason: "invalid Host header", "Host: \(host.debugDescription)")
        }
        #expect(!stack.origin.requests.contains { $0.contains("/bad-host") }, "\(stack.origin.requests)")
        #expect(try await stack.stillServes())
    }

    @Test func malformedRequestHeadsAreRefused() async throws {
        let stack = try await HostileStack.start()
        defer { stack.stop() }
        let cases: [(String, String)] = [
            ("empty name first", "GET /refused HTTP/1.1\r\n: x\r\nHost: a\r\n\r\n"),
            ("empty name after Host", "GET /refused HTTP/1.1\r\nHost: a\r\n: x\r\n\r\n"),
            ("empty name, empty value", "GET /refused HTTP/1.1\r\nHost: a\r\n:\r\n\r\n"),
            ("obs-fold with an empty first line", "GET /refused HTTP/1.1\r\nHost: a\r\nX-Folded:\r\n folded\r\n\r\n"),
            ("obs-fold with an empty first line and a tab", "GET /refused HTTP/1.1\r\nHost: a\r\nX-Folded: \r\n\tfolded\r\n\r\n"),
            ("HTTP/1.0 with Transfer-Encoding",
             "POST /refused HTTP/1.0\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"),
            ("HTTP/1.0 with Transfer-Encoding and Content-Length",
             "POST /refused HTTP/1.0\r\nHost: a\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\nhello"),
        ]
        for (name, request) in cases {
            let answer = try await stack.exchange(request, untilClose: true)
            expectRefused(answer, status: 400, name)
        }
        #expect(!stack.origin.requests.contains { $0.contains("/refused") }, "\(stack.origin.requests)")
        #expect(try await stack.stillServes())
    }

    @Test func h2cUpgradeOfferIsStrippedAndTheRequestForwardedAsPlainHTTP() async throws {
        let stack = try await HostileStack.start()
        defer { stack.stop() }
        let port = stack.port
        let answer = try await Blocking.run {
            let client = try RawClient(port: port)
            defer { client.close() }
            try client.send("GET /offer HTTP/1.1\r\nHost: a\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n"
                + "HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\nX-Kept: yes\r\n\r\n"
                + "GET /after-offer HTTP/1.1\r\nHost: a\r\n\r\n")
            return HostileStack.read(client, responses: 2)
        }
        #expect(answer.parsed.map(\.status) == [200, 200], "\(String(decoding: answer.bytes, as: UTF8.self))")
        let seen = try #require(answer.parsed.first).text.lowercased()
        #expect(seen.contains("x-kept"))
        #expect(!seen.contains("h2c") && !seen.contains("http2-settings") && !seen.contains("\"upgrade\""),
                "the upstream saw the h2c offer: \(seen)")
        #expect(answer.parsed.last?.text.contains("/after-offer") == true, "the connection did not stay a plain HTTP/1.1 one")
    }

    @Test func prohibitedRequestTrailersAreDropped() async throws {
        let stack = try await HostileStack.start()
        defer { stack.stop() }
        let answer = try await stack.exchange("POST /trailers HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "5\r\nhello\r\n0\r\nContent-Length: 99\r\nHost: evil.test\r\nAuthorization: Basic c2VjcmV0\r\n"
            + "Set-Cookie: a=b\r\nConnection: close\r\nTrailer: X-Checksum\r\nX-Checksum: abc123\r\n\r\n")
        let response = try #require(answer.parsed.first)
        #expect(response.status == 200)
        let trailers = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
        let names = (trailers?["trailers"] as? [[String]])?.compactMap(\.first)
        #expect(names == ["X-Checksum"], "the upstream got trailers \(String(describing: names))")
        #expect((trailers?["body"] as? String) == "hello")
    }

    // MARK: Defect 5: head validation (responses → 502)

    @Test(arguments: ["cl-204", "te-204", "cl-103", "te-304", "empty-name", "fold-empty", "http10-te", "status-600", "reason-control",
                            "te-not-token", "te-trailing-comma"])
    func malformedResponseHeadsAreBadGateway(_ name: String) async throws {
        let stack = try await HostileStack.start()
        defer { stack.stop() }
        let answer = try await stack.exchange("GET /r/\(name) HTTP/1.1\r\nHost: a\r\n\r\n")
        #expect(answer.parsed.first?.status == 502, "\(name): got \(String(decoding: answer.bytes, as: UTF8.self).debugDescription)")
        #expect(try await stack.stillServes())
    }

    /// The response side of `HeaderTests.aFieldNamedCloseStopsWhenConnectionListsClose`.
    @Test func aResponseFieldNamedCloseStopsWhenConnectionListsClose() async throws {
        let stack = try await HostileStack.start()
        defer { stack.stop() }
        let answer = try await stack.exchange("GET /r/close-field HTTP/1.1\r\nHost: a\r\n\r\n")
        let text = String(decoding: answer.bytes, as: UTF8.self).lowercased()
        #expect(answer.parsed.first?.status == 200, "\(text.debugDescription)")
        #expect(!text.contains("\r\nclose:"), "\(text.debugDescription)")
        #expect(text.contains("\r\nx-kept: yes"), "\(text.debugDescription)")
    }

    @Test func switchingProtocolsWithoutUpgradeIsBadGateway() async throws {
        let stack = try await HostileStack.start()
        defer { stack.stop() }
        let answer = try await stack.exchange(
            "GET /r/101-no-upgrade HTTP/1.1\r\nHost: a\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n")
        #expect(answer.parsed.first?.status == 502, "got \(String(decoding: answer.bytes, as: UTF8.self).debugDescription)")
        #expect(try await stack.stillServes())
    }

    @Test func prohibitedResponseTrailersAreDropped() async throws {
        let stack = try await HostileStack.start()
        defer { stack.stop() }
        let answer = try await stack.exchange("GET /r/bad-trailers HTTP/1.1\r\nHost: a\r\nTE: trailers\r\n\r\n")
        #expect(answer.parsed.first?.status == 200)
        #expect(answer.parsed.first?.text == "hello")
        let text = String(decoding: answer.bytes, as: UTF8.self)
        #expect(text.contains("\r\nX-Checksum: abc123\r\n"), "allowed trailer lost: \(text.debugDescription)")
        #expect(!text.contains("trailer-cookie") && !text.contains("Content-Length: 99"), "prohibited trailer forwarded: \(text.debugDescription)")
        #expect(!text.contains("Trailer: X-Checksum\r\nX-Checksum"), "Trailer forwarded as a trailer: \(text.debugDescription)")
    }
}
