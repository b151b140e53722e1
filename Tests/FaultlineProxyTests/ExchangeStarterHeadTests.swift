import Testing
@testable import FaultlineProxy
import FaultlineHTTP

/// The head an exchange sends upstream, byte for byte, as the starter builds it from the
/// route it chose: Host kept or rewritten, forwarding fields, hop-by-hop and fault-control
/// fields removed, and the framing field the exchange computed.
@Suite("Exchange starter: upstream head")
struct ExchangeStarterHeadTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let label: String
        let request: String
        var scheme: StaticString = "http"
        let upstreamHead: String
        let framing: BodyFraming
        var upgrade = false

        var testDescription: String { label }
    }

    static let cases: [Case] = [
        Case(label: "hop-by-hop, fault controls and stale forwarding fields go; forwarding fields append",
             request: "POST /users?id=1 HTTP/1.1\r\nHost: api.example\r\nConnection: keep-alive, X-Hop\r\nX-Hop: 1\r\n"
                + "Keep-Alive: 5\r\nTE: trailers\r\nProxy-Connection: x\r\nX-Forwarded-For: 10.0.0.1\r\n"
                + "X-Forwarded-Proto: ftp\r\nX-Forwarded-Host: spoofed\r\nVia: 1.0 edge\r\nX-Faultline-Delay-Ms: 0\r\n"
                + "x-faultline-status: 200\r\nAccept: */*\r\nContent-Length: 5\r\n\r\n",
             upstreamHead: "POST /users?id=1 HTTP/1.1\r\nAccept: */*\r\nHost: api.example\r\n"
                + "X-Forwarded-For: 10.0.0.1, 192.0.2.7\r\nX-Forwarded-Proto: http\r\nX-Forwarded-Host: api.example\r\n"
                + "Via: 1.0 edge, 1.1 faultline\r\nContent-Length: 5\r\n\r\n",
             framing: .contentLength(5)),
        Case(label: "Host rewritten for the upstream, https, chunked with its codings",
             request: "PUT /a HTTP/1.1\r\nHost: www.site.example\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
             scheme: "https",
             upstreamHead: "PUT /a HTTP/1.1\r\nHost: 127.0.0.1:8082\r\nX-Forwarded-For: 192.0.2.7\r\n"
                + "X-Forwarded-Proto: https\r\nX-Forwarded-Host: www.site.example\r\nVia: 1.1 faultline\r\n"
                + "Transfer-Encoding: gzip, chunked\r\n\r\n",
             framing: .chunked),
        Case(label: "an explicitly empty body keeps its Content-Length: 0",
             request: "POST /empty HTTP/1.1\r\nHost: api.example\r\nContent-Length: 0\r\n\r\n",
             upstreamHead: "POST /empty HTTP/1.1\r\nHost: api.example\r\nX-Forwarded-For: 192.0.2.7\r\n"
                + "X-Forwarded-Proto: http\r\nX-Forwarded-Host: api.example\r\nVia: 1.1 faultline\r\nContent-Length: 0\r\n\r\n",
             framing: .none),
        Case(label: "HTTP/1.0 goes upstream as HTTP/1.1 with a 1.0 Via",
             request: "GET /down HTTP/1.0\r\nHost: api.example\r\nConnection: keep-alive\r\n\r\n",
             upstreamHead: "GET /down HTTP/1.1\r\nHost: api.example\r\nX-Forwarded-For: 192.0.2.7\r\n"
                + "X-Forwarded-Proto: http\r\nX-Forwarded-Host: api.example\r\nVia: 1.0 faultline\r\n\r\n",
             framing: .none),
        Case(label: "an upgrade keeps Upgrade and its own Connection",
             request: "GET /ws HTTP/1.1\r\nHost: api.example\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
                + "Sec-WebSocket-Key: k\r\n\r\n",
             upstreamHead: "GET /ws HTTP/1.1\r\nSec-WebSocket-Key: k\r\nHost: api.example\r\nX-Forwarded-For: 192.0.2.7\r\n"
                + "X-Forwarded-Proto: http\r\nX-Forwarded-Host: api.example\r\nVia: 1.1 faultline\r\n"
                + "Connection: upgrade\r\nUpgrade: websocket\r\n\r\n",
             framing: .none, upgrade: true),
    ]

    @Test(arguments: cases)
    func upstreamHeadIsExact(_ expected: Case) throws {
        let exchange = try ExchangeStarterTests.start(expected.request, scheme: expected.scheme)
        #expect(exchange.route != nil)
        #expect(String(decoding: exchange.upstreamHead.http1Bytes, as: UTF8.self) == expected.upstreamHead)
        #expect(exchange.machine.setup.requestFraming == expected.framing)
        #expect(exchange.machine.setup.upgradeRequested == expected.upgrade)
    }
}
