import Foundation
import Testing
import FaultlineTestSupport

/// Hop-by-hop headers stay on their hop; forwarding headers are added.
@Suite(.timeLimit(.minutes(1)))
struct HeaderTests {
    /// Sends one request through the proxy to the scripted origin and returns the headers it received.
    func headersSeenUpstream(_ stack: ProxyStack, _ request: String) async throws -> [(name: String, value: String)] {
        let reply = try await Blocking.run {
            let client = try RawClient(port: stack.port)
            try client.send(request)
            return client.readResponses(1)
        }
        guard let response = reply.responses.first else { throw TestFailure("no response") }
        #expect(response.status == 200)
        let echo = try JSONObject.parse(response.body)
        let pairs = echo["headers"] as? [[String]] ?? []
        return pairs.map { (name: $0[0], value: $0[1]) }
    }

    @Test func hopByHopHeadersAreRemovedAndForwardingHeadersAdded() async throws {
        let stack = try await ProxyStack.scripted()
        defer { stack.stop() }
        let headers = try await headersSeenUpstream(stack, "GET /headers?a=1 HTTP/1.1\r\nHost: app.example:1234\r\n"
            + "Connection: keep-alive, X-Secret-Hop\r\nX-Secret-Hop: 1\r\nKeep-Alive: timeout=5\r\n"
            + "Proxy-Connection: keep-alive\r\nTE: trailers\r\nUpgrade-Insecure-Requests: 1\r\nX-Kept: yes\r\n\r\n")
        let names = Set(headers.map { $0.name.lowercased() })
        for hop in ["x-secret-hop", "keep-alive", "proxy-connection", "te"] {
            #expect(!names.contains(hop), "origin received hop-by-hop header \(hop): \(headers)")
        }
        // Whatever Connection the proxy sends upstream must not name the client's hop header.
        let connection = headers.filter { $0.name.lowercased() == "connection" }.map { $0.value.lowercased() }
        #expect(!connection.contains { $0.contains("x-secret-hop") }, "\(connection)")
        let value = { (name: String) in headers.first { $0.name.lowercased() == name }?.value }
        #expect(value("x-kept") == "yes")
        #expect(value("upgrade-insecure-requests") == "1", "an end-to-end header was dropped")
        #expect(value("x-forwarded-for") == "127.0.0.1")
        #expect(value("x-forwarded-proto") == "http")
        #expect(value("x-forwarded-host") == "app.example:1234")
        #expect(value("via")?.contains("1.1") == true, "\(headers)")
        #expect(value("host") == "app.example:1234", "Host is preserved by default")
    }

    /// `Connection: close` names a field like any other token: a field called `Close` is
    /// hop-by-hop then, and stays at this hop (RFC 9110 §7.6.1).
    @Test func aFieldNamedCloseStopsWhenConnectionListsClose() async throws {
        let stack = try await ProxyStack.scripted()
        defer { stack.stop() }
        let headers = try await headersSeenUpstream(stack, "GET /headers HTTP/1.1\r\nHost: a\r\n"
            + "Connection: close\r\nClose: hop-value\r\nX-Kept: yes\r\n\r\n")
        #expect(!headers.contains { $0.name.lowercased() == "close" }, "\(headers)")
        #expect(headers.first { $0.name.lowercased() == "x-kept" }?.value == "yes", "\(headers)")
    }

    @Test func existingForwardedForIsExtended() async throws {
        let stack = try await ProxyStack.scripted()
        defer { stack.stop() }
        let headers = try await headersSeenUpstream(stack, "GET /headers HTTP/1.1\r\nHost: a\r\n"
            + "X-Forwarded-For: 203.0.113.7\r\nVia: 1.1 edge\r\n\r\n")
        let forwarded = headers.filter { $0.name.lowercased() == "x-forwarded-for" }.map(\.value).joined(separator: ", ")
        #expect(forwarded == "203.0.113.7, 127.0.0.1", "\(headers)")
        let via = headers.filter { $0.name.lowercased() == "via" }.map(\.value).joined(separator: ", ")
        #expect(via.hasPrefix("1.1 edge, "), "\(via)")
    }

    @Test func responseHopByHopHeadersAreRemovedAndViaAdded() async throws {
        let stack = try await ProxyStack.demo()
        defer { stack.stop() }
        let result = try await Curl.run(["-D", "/dev/stderr", "-o", "/dev/null", stack.url("/headers")])
        #expect(result.exitCode == 0)
        let head = result.stderr.lowercased()
        #expect(head.contains("via: 1.1"), "\(result.stderr)")
        let echo = try await Curl.run([stack.url("/headers"), "-H", "Connection: close, X-Secret-Hop",
                                       "-H", "X-Secret-Hop: 1", "-H", "Keep-Alive: 5"])
        let seen = try JSONObject.parse(echo.stdout)["headers"] as? [String: Any] ?? [:]
        #expect(seen["x-secret-hop"] == nil, "\(seen)")
        #expect(seen["keep-alive"] == nil, "\(seen)")
        #expect(seen["x-forwarded-for"] as? String == "127.0.0.1")
    }
}

/// The session header is removed wherever a request carries it: in the head (SessionTests)
/// and in request trailers, over HTTP/2 and over HTTP/1 chunked bodies alike.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct SessionHeaderTrailerTests {
    @Test func theSessionHeaderInRequestTrailersNeverReachesTheOrigin() async throws {
        let stack = try await HTTP2ConformanceStack.start()
        let report = try await stack.probe([
            ["do": "request", "label": "h2", "method": "POST", "path": "/trailers-h2", "body": "hello",
             "extra": [["x-faultline-session", "nosuchsession0000"]],
             "trailers": [["x-faultline-session", "nosuchsession0000"], ["x-kept", "1"]]],
        ])
        #expect(report.stream(labelled: "h2")?.status == 200, "\(report)")
        let reply = try await Blocking.run {
            let client = try RawClient(port: stack.proxy.port)
            try client.send("POST /trailers-h1 HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n"
                + "X-Faultline-Session: nosuchsession0000\r\n\r\n5\r\nhello\r\n0\r\n"
                + "X-Faultline-Session: nosuchsession0000\r\nx-faultline-session: again\r\nX-Kept: 1\r\n\r\n")
            return client.readResponses(1)
        }
        #expect(reply.responses.first?.status == 200, "\(reply)")
        for path in ["/trailers-h2", "/trailers-h1"] {
            let requests = stack.origin.requests(to: path)
            #expect(requests.count == 1, "\(path): \(requests)")
            let headers = (requests.first?["headers"] as? [[String]] ?? []).compactMap { $0.first?.lowercased() }
            let trailers = (requests.first?["trailers"] as? [[String]] ?? []).compactMap { $0.first?.lowercased() }
            #expect(!headers.contains("x-faultline-session"), "\(path): \(headers)")
            #expect(trailers == ["x-kept"], "\(path): trailers \(trailers)")
        }
    }

    /// The fault control headers, when `fault_headers` is on, are consumed by the proxy and
    /// never forwarded: not in the head and not in trailers either.
    @Test func faultControlHeadersInRequestTrailersNeverReachTheOrigin() async throws {
        let stack = try await HTTP2ConformanceStack.start(topLevel: #""fault_headers": {"enabled": true},"#)
        let report = try await stack.probe([
            ["do": "request", "label": "h2", "method": "POST", "path": "/controls-h2", "body": "hello",
             "trailers": [["x-faultline-status", "503"], ["x-faultline-delay-ms", "1"], ["x-kept", "1"]]],
        ])
        #expect(report.stream(labelled: "h2")?.status == 200, "\(report)")
        let reply = try await Blocking.run {
            let client = try RawClient(port: stack.proxy.port)
            try client.send("POST /controls-h1 HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n"
                + "X-Faultline-Status: 503\r\nX-Faultline-Delay-Ms: 1\r\nX-Kept: 1\r\n\r\n")
            return client.readResponses(1)
        }
        #expect(reply.responses.first?.status == 200, "\(reply)")
        for path in ["/controls-h2", "/controls-h1"] {
            let requests = stack.origin.requests(to: path)
            #expect(requests.count == 1, "\(path): \(requests)")
            let trailers = (requests.first?["trailers"] as? [[String]] ?? []).compactMap { $0.first?.lowercased() }
            #expect(trailers == ["x-kept"], "\(path): trailers \(trailers)")
        }
    }
}
