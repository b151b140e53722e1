import Testing
import FaultlineHTTP
import FaultlineHTTP2

/// HTTP/1 heads turned into HTTP/2 field lists (RFC 9113 §8.2.2, §8.3).
@Suite("HTTP/2 field translation")
struct FieldTranslationTests {
    private func head(_ fields: [(String, String)]) -> HTTPHead {
        var head = HTTPHead()
        for (name, value) in fields { head.headers.add(name: name, value: value) }
        return head
    }

    @Test func responseDropsConnectionSpecificFieldsAndLowercases() {
        var response = head([
            ("Content-Type", "text/plain"), ("Connection", "close, X-Hop"), ("Keep-Alive", "timeout=5"),
            ("Proxy-Connection", "keep-alive"), ("Transfer-Encoding", "chunked"), ("Upgrade", "websocket"),
            ("X-Hop", "1"), ("Set-Cookie", "a=1"), ("Set-Cookie", "b=2"), ("TE", "trailers"),
        ])
        response.status = 404
        let fields = response.http2ResponseFields().pairs
        #expect(fields.map(\.name) == [":status", "content-type", "set-cookie", "set-cookie", "te"])
        #expect(fields.first?.value == "404")
        #expect(fields.filter { $0.name == "set-cookie" }.map(\.value) == ["a=1", "b=2"])
    }

    @Test func requestFieldsCarryThePseudoHeadersAndOnlyTrailersInTE() {
        var request = head([("Host", "origin.test:8080"), ("Accept", "*/*"), ("TE", "trailers, deflate"), ("Connection", "keep-alive")])
        request.method = "POST"
        request.target = Array("/rpc?x=1".utf8)
        let fields = request.http2RequestFields(scheme: "http").pairs
        #expect(fields.map(\.name) == [":method", ":scheme", ":authority", ":path", "accept", "te"])
        #expect(fields.map(\.value) == ["POST", "http", "origin.test:8080", "/rpc?x=1", "*/*", "trailers"])
        let named = request.http2RequestFields(scheme: "https", authority: "other.test").pairs
        #expect(named[2].value == "other.test")
    }

    @Test func trailersAreLowercasedWithoutConnectionFields() {
        let trailers = HTTPHead.http2Trailers(head([("Grpc-Status", "0"), ("Connection", "x")]).headers)
        #expect(trailers.pairs.map(\.name) == ["grpc-status"])
    }

    @Test func keepAliveInConnectionKeepsEveryOtherField() {
        var response = head([("Connection", "Keep-Alive"), ("Keep-Alive", "timeout=5"), ("Content-Type", "text/plain"),
                             ("X-Hop", "1"), ("ETag", "\"abc\"")])
        response.status = 200
        #expect(response.http2ResponseFields().pairs.map(\.name) == [":status", "content-type", "x-hop", "etag"])
        response.headers = head([("Connection", "keep-alive, x-hop"), ("X-Hop", "1"), ("Date", "today")]).headers
        #expect(response.http2ResponseFields().pairs.map(\.name) == [":status", "date"])
    }

    @Test func aLargeHeadTranslatesWholeIntoStorageSizedFromIt() {
        // Forty fields with values up to 3,000 bytes, mixed case, an empty value and TE lines:
        // every kept line is written in full and nothing beyond the room reserved.
        var fields: [(String, String)] = []
        for index in 0..<40 {
            fields.append(("X-Field-\(index)", String(repeating: Character(UnicodeScalar(UInt8(97 + index % 26))), count: index * 75)))
        }
        fields.append(("TE", "trailers"))
        fields.append(("Te", "deflate"))
        var response = head(fields)
        response.status = 299
        let translated = response.http2ResponseFields(skipping: ["x-field-3"])
        let pairs = translated.pairs
        #expect(pairs.count == 1 + 39 + 1)
        #expect(pairs.first?.name == ":status" && pairs.first?.value == "299")
        #expect(pairs.dropFirst().dropLast().map(\.name) == (0..<40).filter { $0 != 3 }.map { "x-field-\($0)" })
        #expect(pairs.dropFirst().dropLast().map(\.value.count) == (0..<40).filter { $0 != 3 }.map { $0 * 75 })
        #expect(pairs.last?.name == "te" && pairs.last?.value == "trailers")
        #expect(translated.bytes.count <= response.http2ResponseFieldBytes)
        var request = head(fields + [("Host", "origin.test")])
        request.method = "GET"
        request.target = Array("/".utf8) + Array(repeating: UInt8(ascii: "p"), count: 4000)
        let requestPairs = request.http2RequestFields(scheme: "https").pairs
        #expect(requestPairs.prefix(4).map(\.value) == ["GET", "https", "origin.test", request.targetString])
        #expect(requestPairs.count == 4 + 40 + 1)
    }

    @Test func errorCodesHaveTheirRFCNames() {
        #expect(HTTP2ErrorCode.protocolError.description == "PROTOCOL_ERROR")
        #expect(HTTP2ErrorCode(rawValue: 0x42).description == "0x42")
        #expect(HTTP2ErrorCode(name: "refused_stream") == .refusedStream)
        #expect(HTTP2ErrorCode(name: "nonsense") == nil)
    }

    @Test func settingsAreClampedToTheProtocolRanges() {
        let clamped = HTTP2Settings(initialStreamWindow: .max, connectionWindow: 1, maxFrameSize: 1).clamped
        #expect(clamped.initialStreamWindow == HTTP2Settings.maxWindow)
        #expect(clamped.connectionWindow == 65535)
        #expect(clamped.maxFrameSize == 16384)
    }
}
