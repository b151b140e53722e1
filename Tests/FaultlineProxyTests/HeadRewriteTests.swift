import Testing
@testable import FaultlineProxy
import FaultlineHTTP
import FaultlineConfig

@Suite("Head rewriting")
struct HeadRewriteTests {
    private func head(_ text: String, kind: HTTP1Decoder.Kind = .request) -> HTTPHead? {
        let decoder = HTTP1Decoder(kind: kind)
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { decoder.feed($0) }
        for event in decoder.events {
            if event == .head { return decoder.head }
        }
        return nil
    }

    private let upstream = UpstreamConfig(name: "o", host: "origin.internal", port: 8081)

    /// The arrays of ended exchanges' heads hold the next heads: a head written into one that
    /// held a longer head carries nothing of it, and a head something still holds (an exchange
    /// not yet gone) is never changed by a later one.
    @Test func headArraysTakenBackCarryNothingOfTheirLastHeadAndHeldOnesStayAsTheyWere() throws {
        let scratch = HeadScratch()
        let long = try #require(head("GET /a/long/target?q=1 HTTP/1.1\r\nHost: app.example\r\nX-Long: "
            + String(repeating: "l", count: 300) + "\r\n\r\n"))
        let small = try #require(head("GET /s HTTP/1.1\r\nHost: a.example\r\n\r\n"))
        let write = { (head: HTTPHead) in
            RequestHeadWriter.upstreamHead(for: head, framing: .none, clientIP: "1.2.3.4", scheme: "http", upstream: self.upstream,
                                           upgrade: false, scratch: scratch)
        }
        let alone = RequestHeadWriter.upstreamHead(for: small, framing: .none, clientIP: "1.2.3.4", scheme: "http", upstream: upstream,
                                                   upgrade: false)
        // Taken back and no longer held: the next head reuses the array.
        scratch.takeBack(.http1(write(long)))
        #expect(write(small) == alone)
        // Taken back but still held (its exchange lives on): the holder's bytes stay.
        let held = write(long)
        let heldCopy = Array(held)
        scratch.takeBack(.http1(held))
        #expect(write(small) == alone)
        #expect(held == heldCopy)
        // Whatever came back before (an unusually large head, no head), the next head is right.
        let huge = try #require(head("GET / HTTP/1.1\r\nHost: a\r\nX-Huge: " + String(repeating: "h", count: 10_000) + "\r\n\r\n"))
        scratch.takeBack(.http1(write(huge)))
        scratch.takeBack(.none)
        #expect(write(small) == alone)
    }

    /// A loop composes every head in one scratch buffer: a head written after a larger one (and
    /// after one that outgrew what the buffer keeps) carries nothing of it.
    @Test func headsComposedInOneScratchBufferCarryNothingOfTheLastOne() throws {
        let scratch = HeadScratch()
        let big = try #require(head("GET /big HTTP/1.1\r\nHost: app.example\r\nX-Big: " + String(repeating: "b", count: 20_000)
            + "\r\n\r\n"))
        let small = try #require(head("GET /s HTTP/1.1\r\nHost: a.example\r\n\r\n"))
        let alone = RequestHeadWriter.upstreamHead(for: small, framing: .none, clientIP: "1.2.3.4", scheme: "http", upstream: upstream,
                                                   upgrade: false)
        for first in [big, small] {
            _ = RequestHeadWriter.upstreamHead(for: first, framing: .none, clientIP: "9.9.9.9", scheme: "http", upstream: upstream,
                                               upgrade: false, scratch: scratch)
            let after = RequestHeadWriter.upstreamHead(for: small, framing: .none, clientIP: "1.2.3.4", scheme: "http",
                                                       upstream: upstream, upgrade: false, scratch: scratch)
            #expect(after == alone, "\(String(decoding: after, as: UTF8.self))")
        }
        #expect(scratch.buffer.capacity <= HeadScratch.keptBytes * 4)
        let short = try #require(head("HTTP/1.1 204 No Content\r\nX-A: 1\r\n\r\n", kind: .response))
        var expected: [UInt8] = []
        ResponseHeadWriter.appendClientHead(for: short, framing: .none, keepAlive: true, clientMinorVersion: 1, upgrade: false,
                                            into: &expected)
        for size in [1_000, 20_000] {
            let response = try #require(head("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nX-Big: "
                + String(repeating: "r", count: size) + "\r\nContent-Length: 2\r\n\r\nok", kind: .response))
            var out: [UInt8] = []
            ResponseHeadWriter.appendClientHead(for: response, framing: .contentLength(2), keepAlive: true, clientMinorVersion: 1,
                                                upgrade: false, into: &out, scratch: scratch)
            out = []
            ResponseHeadWriter.appendClientHead(for: short, framing: .none, keepAlive: true, clientMinorVersion: 1, upgrade: false,
                                                into: &out, scratch: scratch)
            #expect(out == expected, "after a \(size)-byte field: \(String(decoding: out.prefix(200), as: UTF8.self))")
        }
    }

    @Test func requestDropsHopByHopAndAddsForwardingFields() throws {
        let request = try #require(head("POST /a?b=1 HTTP/1.1\r\nHost: app.example\r\nConnection: keep-alive, X-Hop\r\n"
            + "X-Hop: secret\r\nKeep-Alive: 5\r\nTE: trailers\r\nProxy-Connection: x\r\nUpgrade: h2c\r\n"
            + "X-Forwarded-For: 10.0.0.1\r\nVia: 1.1 edge\r\nX-Keep: yes\r\nContent-Length: 3\r\n\r\nabc"))
        let out = String(decoding: RequestHeadWriter.upstreamHead(for: request, framing: .contentLength(3), clientIP: "127.0.0.9",
                                                                  scheme: "http", upstream: upstream, upgrade: false), as: UTF8.self)
        #expect(out == "POST /a?b=1 HTTP/1.1\r\nX-Keep: yes\r\nHost: app.example\r\n"
            + "X-Forwarded-For: 10.0.0.1, 127.0.0.9\r\nX-Forwarded-Proto: http\r\nX-Forwarded-Host: app.example\r\n"
            + "Via: 1.1 edge, 1.1 faultline\r\nContent-Length: 3\r\n\r\n")
    }

    @Test func hostIsRewrittenWhenTheUpstreamAsks() throws {
        let rewriting = UpstreamConfig(name: "o", host: "origin.internal", port: 8081, hostHeader: .upstream)
        let request = try #require(head("GET / HTTP/1.0\r\nHost: app.example\r\n\r\n"))
        let out = String(decoding: RequestHeadWriter.upstreamHead(for: request, framing: .none, clientIP: "::1", scheme: "http",
                                                                  upstream: rewriting, upgrade: false), as: UTF8.self)
        #expect(out.contains("\r\nHost: \(rewriting.hostHeaderValue)\r\n"))
        #expect(out.contains("X-Forwarded-Host: app.example\r\n"))
        #expect(out.contains("Via: 1.0 faultline\r\n"))
        #expect(out.hasPrefix("GET / HTTP/1.1\r\n"))
    }

    @Test func chunkedRequestIsReframedAndUpgradeKept() throws {
        let chunked = try #require(head("PUT /u HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"))
        let out = String(decoding: RequestHeadWriter.upstreamHead(for: chunked, framing: .chunked, clientIP: "1.2.3.4", scheme: "http",
                                                                  upstream: upstream, upgrade: false), as: UTF8.self)
        #expect(out.components(separatedBy: "Transfer-Encoding: chunked\r\n").count == 2)
        let ws = try #require(head("GET /ws HTTP/1.1\r\nHost: h\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Key: k\r\n\r\n"))
        let upgraded = String(decoding: RequestHeadWriter.upstreamHead(for: ws, framing: .none, clientIP: "1.2.3.4", scheme: "http",
                                                                       upstream: upstream, upgrade: true), as: UTF8.self)
        #expect(upgraded.contains("Connection: upgrade\r\nUpgrade: websocket\r\n"))
        #expect(upgraded.contains("Sec-WebSocket-Key: k\r\n"))
    }

    @Test func responseFramingFollowsTheClient() throws {
        let response = try #require(head("HTTP/1.1 200 OK\r\nConnection: close, X-Drop\r\nX-Drop: 1\r\nServer: o\r\n\r\n", kind: .response))
        let chunked = String(decoding: ResponseHeadWriter.clientHead(for: response, framing: .chunked, keepAlive: true,
                                                                     clientMinorVersion: 1, upgrade: false), as: UTF8.self)
        #expect(chunked == "HTTP/1.1 200 OK\r\nServer: o\r\nVia: 1.1 faultline\r\nTransfer-Encoding: chunked\r\n\r\n")
        let closing = String(decoding: ResponseHeadWriter.clientHead(for: response, framing: .untilClose, keepAlive: false,
                                                                     clientMinorVersion: 0, upgrade: false), as: UTF8.self)
        #expect(closing == "HTTP/1.1 200 OK\r\nServer: o\r\nVia: 1.1 faultline\r\nConnection: close\r\n\r\n")
    }

    /// A head built without the decoder (which refuses these) still cannot lose its framing to
    /// a Connection token: the writers emit the field for the computed framing, exactly once.
    @Test func connectionTokensNeverRemoveFraming() {
        var request = HTTPHead()
        request.method = "POST"
        request.target = Array("/p".utf8)
        request.headers.add(name: "Host", value: "app.example")
        request.headers.add(name: "Connection", value: "content-length, Host, transfer-encoding, X-Hop")
        request.headers.add(name: "Content-Length", value: "999")
        request.headers.add(name: "X-Hop", value: "1")
        request.contentLength = 5
        let sized = String(decoding: RequestHeadWriter.upstreamHead(for: request, framing: .contentLength(5), clientIP: "1.2.3.4",
                                                                    scheme: "http", upstream: upstream, upgrade: false), as: UTF8.self)
        #expect(sized.components(separatedBy: "Content-Length: ").count == 2, "\(sized)")
        #expect(sized.contains("\r\nContent-Length: 5\r\n"))
        #expect(sized.contains("\r\nHost: app.example\r\n"))
        #expect(!sized.contains("X-Hop"))
        let chunked = String(decoding: RequestHeadWriter.upstreamHead(for: request, framing: .chunked, clientIP: "1.2.3.4",
                                                                      scheme: "http", upstream: upstream, upgrade: false), as: UTF8.self)
        #expect(!chunked.contains("Content-Length"))
        #expect(chunked.contains("\r\nTransfer-Encoding: chunked\r\n"))
        var response = HTTPHead()
        response.status = 200
        response.headers.add(name: "Connection", value: "Content-Length")
        response.headers.add(name: "Content-Length", value: "18446744073709551615")
        response.contentLength = UInt64.max
        let huge = String(decoding: ResponseHeadWriter.clientHead(for: response, framing: .contentLength(UInt64.max), keepAlive: true,
                                                                  clientMinorVersion: 1, upgrade: false), as: UTF8.self)
        #expect(huge.components(separatedBy: "Content-Length: ").count == 2, "\(huge)")
        #expect(huge.contains("\r\nContent-Length: 18446744073709551615\r\n"))
    }

    /// What the writers produce re-parses strictly, with the framing the proxy computed.
    @Test(arguments: [
        ("POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nConnection: keep-alive, X-Hop\r\nX-Hop: 1\r\n\r\n", BodyFraming.contentLength(3)),
        ("POST /a HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", BodyFraming.chunked),
        ("POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\n\r\n", BodyFraming.none),
        ("GET /a HTTP/1.0\r\nHost: h\r\nConnection: keep-alive\r\n\r\n", BodyFraming.none),
        ("GET /a HTTP/1.1\r\nHost: h\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMA\r\n\r\n",
         BodyFraming.none),
    ])
    func writtenRequestsReparseWithTheComputedFraming(_ input: String, _ framing: BodyFraming) throws {
        let request = try #require(head(input))
        let out = RequestHeadWriter.upstreamHead(for: request, framing: framing, clientIP: "1.2.3.4", scheme: "http",
                                                 upstream: upstream, upgrade: request.isUpgrade)
        let reparsed = try #require(head(String(decoding: out, as: UTF8.self)), "\(String(decoding: out, as: UTF8.self))")
        switch framing {
        case .contentLength(let length):
            #expect(reparsed.contentLength == length && !reparsed.isChunked)
        case .chunked:
            #expect(reparsed.isChunked && reparsed.contentLength == nil)
        case .none, .untilClose:
            #expect(!reparsed.isChunked && (reparsed.contentLength ?? 0) == 0)
        }
        #expect(reparsed.headers.count(of: "content-length") + reparsed.headers.count(of: "transfer-encoding") <= 1)
        #expect(reparsed.headers.count(of: "host") == 1)
        #expect(!reparsed.isUpgrade)
    }

    @Test func rewriteFaultsCannotBreakFraming() throws {
        let response = try #require(head("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nX-Old: 1\r\n\r\n", kind: .response))
        let rewritten = response.rewritten(by: RewriteFault(status: 503, removeHeaders: ["content-length", "x-old"]))
        let out = String(decoding: ResponseHeadWriter.clientHead(for: rewritten, framing: .contentLength(5), keepAlive: true,
                                                                 clientMinorVersion: 1, upgrade: false), as: UTF8.self)
        #expect(out.hasPrefix("HTTP/1.1 503 "))
        #expect(out.contains("\r\nContent-Length: 5\r\n"), "\(out)")
        #expect(!out.contains("X-Old"))
    }

    @Test func bodilessResponsesKeepOnlyAllowedLengths() {
        var head = HTTPHead()
        head.status = 200
        head.headers.add(name: "Content-Length", value: "10")
        head.contentLength = 10
        let forHead = String(decoding: ResponseHeadWriter.clientHead(for: head, framing: .none, keepAlive: true,
                                                                     clientMinorVersion: 1, upgrade: false), as: UTF8.self)
        #expect(forHead.contains("\r\nContent-Length: 10\r\n"), "a HEAD answer keeps the declared length")
        head.status = 204
        let noContent = String(decoding: ResponseHeadWriter.clientHead(for: head, framing: .none, keepAlive: true,
                                                                       clientMinorVersion: 1, upgrade: false), as: UTF8.self)
        #expect(!noContent.contains("Content-Length"), "a 204 never declares a length")
    }

    @Test func localResponsesSayWhatHappened() {
        let response = OwnResponse.local(LocalResponse(status: 502, message: "upstream unreachable", keepAlive: false),
                                         requestID: nil)
        let bytes = OwnResponseHTTP1.bytes(of: response, close: true)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 502 Bad Gateway\r\n"))
        #expect(text.contains("Content-Length: 21\r\n"))
        #expect(text.contains("Connection: close\r\n"))
        #expect(text.hasSuffix("\r\n\r\nupstream unreachable\n"))
    }
}
