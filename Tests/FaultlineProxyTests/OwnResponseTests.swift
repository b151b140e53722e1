import Foundation
import Testing
@testable import FaultlineProxy
import FaultlineHTTP
import FaultlineConfig

/// The responses Faultline writes itself, described once (`OwnResponse`) and encoded by each
/// client codec: the HTTP/1 bytes and the HTTP/2 header block and DATA of every kind, exactly.
@Suite("Own responses on both client protocols")
struct OwnResponseTests {
    static func exchange(_ request: String = "GET /down HTTP/1.1\r\nHost: api.example\r\n\r\n") throws -> Exchange {
        try ExchangeStarterTests.start(request)
    }

    static func text(_ response: OwnResponse, close: Bool) -> String {
        String(decoding: OwnResponseHTTP1.bytes(of: response, close: close), as: UTF8.self)
    }

    static func pairs(_ fields: HTTPHeaders) -> [String] {
        (0..<fields.count).map { index in
            fields.withField(index) { name, value in
                String(decoding: name, as: UTF8.self) + ": " + String(decoding: value, as: UTF8.self)
            }
        }
    }

    @Test func aLocalErrorCarriesItsLengthServerAndRequestID() {
        let response = OwnResponse.local(LocalResponse(status: 502, message: "upstream unreachable", keepAlive: true),
                                         requestID: "r-1")
        #expect(Self.text(response, close: false) == "HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/plain; charset=utf-8\r\n"
                + "Content-Length: 21\r\nServer: faultline\r\nX-Request-ID: r-1\r\n\r\nupstream unreachable\n")
        #expect(Self.text(response, close: true).contains("X-Request-ID: r-1\r\nConnection: close\r\n\r\n"))
        #expect(Self.pairs(OwnResponseHTTP2.fields(of: response)) == [
            ":status: 502", "content-type: text/plain; charset=utf-8", "content-length: 21", "server: faultline",
            "x-request-id: r-1",
        ])
        #expect(OwnResponseHTTP2.body(of: response) == Array("upstream unreachable\n".utf8))
    }

    @Test func aLocalAnswerToHEADDeclaresItsLengthAndSendsNoBody() {
        var local = LocalResponse(status: 404, message: "no route", keepAlive: true)
        local.includeBody = false
        let response = OwnResponse.local(local, requestID: nil)
        #expect(Self.text(response, close: false).hasSuffix("Content-Length: 9\r\nServer: faultline\r\n\r\n"))
        #expect(OwnResponseHTTP2.body(of: response) == nil)
        guard case .local(_, _, let body)? = response.record else { Issue.record("no record"); return }
        #expect(body.isEmpty)
    }

    @Test func aStatusFaultWithItsBodyHeadersAndMarker() throws {
        let exchange = try Self.exchange()
        let fault = StatusFault(code: 503, headers: [FaultHeader(name: "Retry-After", value: "5")], body: .text("gone"))
        let response = OwnResponse.fault(fault, keepAlive: false, exchange: exchange, requestID: "r-2")
        let marker = exchange.machine.setup.faultMarker.map { "X-Faultline-Fault: \($0)\r\n" } ?? ""
        #expect(Self.text(response, close: true) == "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
                + "Content-Length: 4\r\nRetry-After: 5\r\n\(marker)X-Request-ID: r-2\r\nConnection: close\r\n\r\ngone")
        let h2 = Self.pairs(OwnResponseHTTP2.fields(of: response))
        #expect(Array(h2.prefix(4)) == [":status: 503", "content-type: text/plain; charset=utf-8", "content-length: 4",
                                         "retry-after: 5"])
        #expect(h2.last == "x-request-id: r-2")
        #expect(OwnResponseHTTP2.body(of: response) == Array("gone".utf8))
    }

    @Test(arguments: [204, 304, 103])
    func aBodilessStatusFaultHasNoTypeLengthOrBody(code: Int) throws {
        let exchange = try Self.exchange()
        let response = OwnResponse.fault(StatusFault(code: code, body: .text("ignored")), keepAlive: true, exchange: exchange,
                                         requestID: nil)
        let text = Self.text(response, close: false)
        #expect(!text.contains("Content-Type") && !text.contains("Content-Length"))
        #expect(text.hasSuffix("\r\n\r\n"))
        #expect(!Self.pairs(OwnResponseHTTP2.fields(of: response)).contains { $0.hasPrefix("content-") })
        #expect(OwnResponseHTTP2.body(of: response) == nil)
    }

    @Test func aStatusFaultAnsweringHEADKeepsItsLengthOnly() throws {
        let exchange = try Self.exchange("HEAD /down HTTP/1.1\r\nHost: api.example\r\n\r\n")
        let response = OwnResponse.fault(StatusFault(code: 500, body: .text("boom")), keepAlive: true, exchange: exchange,
                                         requestID: nil)
        let text = Self.text(response, close: false)
        #expect(text.contains("\r\nContent-Length: 4\r\n") && text.hasSuffix("\r\n\r\n"))
        #expect(OwnResponseHTTP2.body(of: response) == nil)
    }

    @Test func corruptReplyIsNotHTTPOnEitherProtocol() {
        let response = OwnResponse.garbage
        #expect(OwnResponseHTTP1.bytes(of: response, close: true) == response.body)
        #expect(!Self.text(response, close: true).hasPrefix("HTTP/"))
        #expect(Self.pairs(OwnResponseHTTP2.fields(of: response)) == [":status: x0x", "content-type: application/octet-stream"])
        #expect(OwnResponseHTTP2.body(of: response) == nil)
    }

    @Test func corruptChunkedBreaksItsFramingOnEitherProtocol() {
        let response = OwnResponse.badChunkFraming(marker: "api/cut")
        #expect(Self.text(response, close: true) == "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                + "Transfer-Encoding: chunked\r\nX-Faultline-Fault: api/cut\r\n\r\n6\r\n{\"ok\":\r\nzz-not-a-chunk-size\r\n")
        #expect(Self.pairs(OwnResponseHTTP2.fields(of: response)) == [":status: 200", "content-type: application/json",
                                                                      "x-faultline-fault: api/cut"])
        // The body goes as DATA before the reset, not as a complete response.
        #expect(OwnResponseHTTP2.body(of: response) == nil)
        #expect(response.ending == .brokenFraming)
    }
}
