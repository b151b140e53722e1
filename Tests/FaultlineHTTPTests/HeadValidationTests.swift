import Testing
import FaultlineHTTP

/// Heads llhttp accepts but the decoder must refuse or normalise, each decoded whole and
/// byte by byte (a hostile peer chooses how its bytes are split).
@Suite("Head validation")
struct HeadValidationTests {
    /// Decodes `input` whole and one byte at a time and expects the same transcript.
    private func decodeEveryWay(_ input: String, kind: HTTP1Decoder.Kind) -> Transcript {
        let bytes = input.bytes
        let whole = decode(bytes, kind: kind)
        let byteByByte = decode(bytes, kind: kind, cuts: Array(1..<bytes.count))
        #expect(byteByByte == whole, "byte-by-byte decoding differs for \(input.debugDescription)")
        return whole
    }

    private func expectRefused(_ input: String, kind: HTTP1Decoder.Kind, reason: String? = nil) {
        let transcript = decodeEveryWay(input, kind: kind)
        #expect(transcript.failure?.kind == .malformed, "accepted: \(input.debugDescription) → \(transcript)")
        #expect(transcript.heads.isEmpty, "a refused head was handed out: \(transcript.heads)")
        if let reason { #expect(transcript.failure?.reason == reason, "\(input.debugDescription)") }
    }

    /// `HTTPHead.isTargetByte`, the rule HTTP/2 `:path` values are held to, is llhttp's rule for
    /// an HTTP/1 target: for every byte in a path and in a query, the decoder takes the target
    /// exactly when the rule does (space, `?` and `#` are the target's own syntax).
    @Test func theTargetByteRuleIsTheHTTP1ParsersRule() {
        for value in 0...255 {
            let byte = UInt8(value)
            guard byte != 0x20, byte != UInt8(ascii: "?"), byte != UInt8(ascii: "#") else { continue }
            for prefix in ["/a", "/a?q="] {
                let input = Array("GET \(prefix)".utf8) + [byte] + Array("b HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
                let accepted = decode(input, kind: .request).heads.count == 1
                #expect(accepted == HTTPHead.isTargetByte(byte), "byte 0x\(String(byte, radix: 16)) after \(prefix)")
            }
        }
        var head = HTTPHead()
        head.method = "GET"
        head.target = Array("/caf\u{E9}".utf8)
        #expect(throws: HTTPHeadViolation.invalidTargetByte(0xC3)) { try head.validateRequest() }
    }

    @Test(arguments: [
        "a:-9223372036854775808", "a:9223372036854775808", "a:-1", "a:65536", "a:0", "a:+80", "a: 80", "a:8o",
        "a:99999999999999999999999999", "a b", "a/b", "a?b", "a#b", "user@a", "a\\b", "[::1", "[::1]x", "[]", "[v1]",
        "a:80:80", "a]b", "a\"b", "a<b", "", ":80", "a%2", "a%zz", "[::1]:99999",
    ])
    func invalidHostIsRefused(_ host: String) {
        expectRefused("GET / HTTP/1.1\r\nHost: \(host)\r\n\r\n", kind: .request, reason: "invalid Host header")
    }

    @Test(arguments: [
        "a", "a:8080", "a:1", "a:65535", "a:00080", "a:", "127.0.0.1:80", "[::1]", "[::1]:8080", "[2001:db8::7]",
        "[::ffff:192.0.2.1]:1", "[v7.fe80::1+eth0]", "xn--bcher-kva.example", "a_b.test", "a.test.", "a%20b", "A-B~c!$&'()*+,;=",
    ])
    func validHostPasses(_ host: String) {
        let transcript = decodeEveryWay("GET / HTTP/1.1\r\nHost: \(host)\r\n\r\n", kind: .request)
        #expect(transcript.failure == nil, "Host: \(host) → \(String(describing: transcript.failure))")
        #expect(transcript.heads.count == 1)
    }

    @Test func hostPortsParseIntoUInt16() {
        #expect(HTTPAuthority("a:65535".bytes)?.port == 65535)
        #expect(HTTPAuthority("a:00080".bytes)?.port == 80)
        #expect(HTTPAuthority("[::1]:443".bytes)?.port == 443)
        #expect(HTTPAuthority("[::1]:443".bytes)?.hostLength == 5)
        #expect(HTTPAuthority("a:".bytes)?.port == nil)
        #expect(HTTPAuthority("a".bytes)?.port == nil)
        #expect(HTTPAuthority.port("65536".bytes) == nil)
        #expect(HTTPAuthority.port("-1".bytes) == nil)
        #expect(HTTPAuthority.port("9223372036854775808".bytes) == nil)
        #expect(HTTPAuthority.port("".bytes) == nil)
    }

    @Test(arguments: [
        "http://a:-9223372036854775808/p", "http://a b/p", "http://a:65536/", "http:///p", "http://user@/p", "http://a:1:2/",
    ])
    func invalidAbsoluteFormAuthorityIsRefused(_ target: String) {
        expectRefused("GET \(target) HTTP/1.1\r\nHost: a\r\n\r\n", kind: .request)
    }

    @Test func absoluteFormWithUserinfoAndPortPasses() {
        let transcript = decodeEveryWay("GET http://user:pw@a.test:8080/p?q HTTP/1.1\r\nHost: a.test:8080\r\n\r\n", kind: .request)
        #expect(transcript.failure == nil)
    }

    @Test(arguments: [
        "GET / HTTP/1.1\r\n: x\r\nHost: a\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: a\r\n: x\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: a\r\n:\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: a\r\n:x\r\n\r\n",
    ])
    func emptyFieldNameIsRefused(_ input: String) {
        expectRefused(input, kind: .request, reason: "empty header field name")
        let response = "HTTP/1.1 200 OK" + input.dropFirst("GET / HTTP/1.1".count)
        expectRefused(response, kind: .response, reason: "empty header field name")
    }

    @Test(arguments: [
        "X-Folded:\r\n folded", "X-Folded: \r\n folded", "X-Folded:\r\n\tfolded", "X-Folded:  \t\r\n  \t folded", "X-Folded: a\r\n b",
    ])
    func obsFoldIsRefusedWhateverItsFirstLine(_ field: String) {
        expectRefused("GET / HTTP/1.1\r\nHost: a\r\n\(field)\r\n\r\n", kind: .request)
        expectRefused("HTTP/1.1 200 OK\r\n\(field)\r\nContent-Length: 0\r\n\r\n", kind: .response)
    }

    @Test func valuesSplitAtWhitespaceAreNotFolds() {
        let input = "GET / HTTP/1.1\r\nHost: a\r\nX-Spaced:   a  b   c\r\nX-Empty:\r\nX-Blank:   \r\n\r\n"
        let transcript = decodeEveryWay(input, kind: .request)
        #expect(transcript.failure == nil)
        #expect(transcript.heads.first?.contains("X-Spaced=a  b   c;X-Empty=;X-Blank=") == true, "\(transcript.heads)")
    }

    @Test(arguments: ["content-length", "Content-Length", "keep-alive, Content-Length", "transfer-encoding", "TRANSFER-ENCODING", "host", "close,host"])
    func connectionMayNotNameFramingFields(_ tokens: String) {
        expectRefused("POST / HTTP/1.1\r\nHost: a\r\nConnection: \(tokens)\r\nContent-Length: 3\r\n\r\nabc", kind: .request)
        expectRefused("POST / HTTP/1.1\r\nHost: a\r\nConnection: keep-alive\r\nConnection: \(tokens)\r\nContent-Length: 3\r\n\r\nabc",
                      kind: .request)
        expectRefused("HTTP/1.1 200 OK\r\nConnection: \(tokens)\r\nContent-Length: 3\r\n\r\nabc", kind: .response)
    }

    @Test func http10WithTransferEncodingIsRefused() {
        expectRefused("POST / HTTP/1.0\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", kind: .request,
                      reason: "Transfer-Encoding in an HTTP/1.0 message")
        expectRefused("HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", kind: .response)
        // HTTP/1.1 keeps chunked.
        #expect(decodeEveryWay("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", kind: .request).failure == nil)
    }

    @Test(arguments: [
        "HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n",
        "HTTP/1.1 204 No Content\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        "HTTP/1.1 100 Continue\r\nContent-Length: 0\r\n\r\n",
        "HTTP/1.1 103 Early Hints\r\nTransfer-Encoding: chunked\r\n\r\n",
        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: upgrade\r\nContent-Length: 0\r\n\r\n",
        "HTTP/1.1 304 Not Modified\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        "HTTP/1.1 600 Beyond\r\nContent-Length: 0\r\n\r\n",
        "HTTP/1.1 099 Below\r\nContent-Length: 0\r\n\r\n",
    ])
    func responseFramingContradictingItsStatusIsRefused(_ input: String) {
        expectRefused(input, kind: .response)
    }

    @Test func notModifiedMayDeclareALength() {
        let transcript = decodeEveryWay("HTTP/1.1 304 Not Modified\r\nContent-Length: 10\r\n\r\n", kind: .response)
        #expect(transcript.failure == nil)
    }

    @Test func h2cUpgradeOfferIsStripped() {
        let input = "GET /h2c HTTP/1.1\r\nHost: a\r\nConnection: Upgrade, HTTP2-Settings, keep-alive\r\nUpgrade: h2c\r\n"
            + "HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\nX-Kept: yes\r\n\r\nGET /next HTTP/1.1\r\nHost: a\r\n\r\n"
        let transcript = decodeEveryWay(input, kind: .request)
        #expect(transcript.failure == nil)
        #expect(transcript.upgradedRest == nil, "the stripped offer still switched the decoder to a tunnel")
        #expect(transcript.heads == [
            "GET /h2c 1.1 ka=true chunked=false cl=- up=false [Host=a;Connection=keep-alive;X-Kept=yes]",
            "GET /next 1.1 ka=true chunked=false cl=- up=false [Host=a]",
        ])
    }

    @Test func h2cNextToAnotherProtocolKeepsTheOther() {
        let input = "GET /ws HTTP/1.1\r\nHost: a\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c, websocket\r\n"
            + "HTTP2-Settings: AAMA\r\n\r\n"
        let transcript = decodeEveryWay(input, kind: .request)
        #expect(transcript.heads == ["GET /ws 1.1 ka=true chunked=false cl=- up=true [Host=a;Connection=Upgrade;Upgrade=websocket]"])
        #expect(transcript.upgradedRest == [])
    }

    @Test func trailerCountIsLimited() {
        let limits = HTTP1DecoderLimits(maxHeaderCount: 3)
        let trailers = (0..<4).map { "X-T\($0): v\r\n" }.joined()
        let transcript = decode("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\(trailers)\r\n".bytes,
                                kind: .request, limits: limits)
        #expect(transcript.failure?.kind == .tooManyHeaders)
    }

    @Test func prohibitedTrailersAreNeverWritten() {
        var trailers = HTTPHeaders()
        for name in ["Content-Length", "transfer-encoding", "Host", "Set-Cookie", "Authorization", "Content-Type", "Trailer",
                     "Connection", "Keep-Alive", "TE", "Upgrade", "Cache-Control", "Expect", "Max-Forwards", "Pragma", "Range",
                     "Content-Encoding", "Content-Range", "Age", "Expires", "Date", "Location", "Retry-After", "Vary", "Warning",
                     "WWW-Authenticate", "Proxy-Authenticate", "Proxy-Authorization", ""] {
            trailers.add(name: name, value: "v")
        }
        trailers.add(name: "X-Checksum", value: "abc123")
        var out: [UInt8] = []
        HTTP1Encoder.appendLastChunk(trailers: trailers, into: &out)
        #expect(String(decoding: out, as: UTF8.self) == "0\r\nX-Checksum: abc123\r\n\r\n")
        #expect(trailers.forwardableTrailers.pairs.map(\.name) == ["X-Checksum"])
    }

    @Test(arguments: [
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, gzip\r\n\r\n",
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: gzip\r\n\r\n",
        // llhttp does not frame this as chunked; the list without its empty element ends in it.
        "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked,\r\n\r\n",
    ])
    func chunkedBeforeAnotherCodingIsRefused(_ input: String) {
        expectRefused(input, kind: .response, reason: HTTPHeadViolation.chunkedNotFinal.description)
    }

    /// A coding that is not a token is refused (the proxy would list it again when it
    /// re-frames the body); a token with parameters, and OWS around the commas, still pass.
    @Test(arguments: [
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: c hunked\r\n\r\n", false),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, c hunked\r\n\r\n", false),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: \"gzip\"\r\n\r\n", false),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: ;q=1\r\n\r\n", false),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip ;q=1 , chunked\r\n\r\n", true),
        ("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip,\tchunked\r\n\r\n", true),
    ])
    func transferCodingsMustBeTokens(_ input: String, _ accepted: Bool) {
        if accepted {
            let transcript = decode(input.bytes, kind: .response)
            #expect(transcript.failure == nil && transcript.heads.count == 1, "\(transcript)")
        } else {
            expectRefused(input, kind: .response, reason: HTTPHeadViolation.invalidTransferCoding.description)
        }
    }

    @Test func otherTransferCodingsAreKeptForTheWriter() {
        let head = { (input: String, kind: HTTP1Decoder.Kind) -> HTTPHead? in
            let decoder = HTTP1Decoder(kind: kind)
            _ = input.bytes.withUnsafeBytes { decoder.feed($0) }
            if decoder.events.contains(.head) { return decoder.head }
            return nil
        }
        let gzip = head("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", .request)
        #expect(gzip?.transferCodingsBeforeChunked == "gzip".bytes)
        let split = head("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\nTransfer-Encoding: br, chunked\r\n\r\n", .response)
        #expect(split?.transferCodingsBeforeChunked == "gzip, br".bytes)
        let closeDelimited = head("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n", .response)
        #expect(closeDelimited?.transferCodingsBeforeChunked == "gzip".bytes)
        let plain = head("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n", .request)
        #expect(plain?.transferCodingsBeforeChunked == [])
    }

    @Test func violationsAreTyped() {
        var head = HTTPHead()
        head.method = "POST"
        head.target = Array("/".utf8)
        head.headers.add(name: "Host", value: "a")
        head.headers.add(name: "Connection", value: "keep-alive, Content-Length")
        #expect(throws: HTTPHeadViolation.connectionNamesFramingField("content-length")) { try head.validateRequest() }
        var response = HTTPHead()
        response.status = 204
        response.headers.add(name: "Content-Length", value: "0")
        #expect(throws: HTTPHeadViolation.framingOnBodilessStatus(204)) { try response.validateResponse() }
        response.status = 1000
        #expect(throws: HTTPHeadViolation.invalidStatus(1000)) { try response.validateResponse() }
        var empty = HTTPHead()
        empty.headers.add(name: "", value: "x")
        #expect(throws: HTTPHeadViolation.emptyFieldName) { try empty.validateRequest() }
    }

    @Test func decimalsAreExactOverTheWholeRange() {
        var out: [UInt8] = []
        HTTP1Encoder.appendField("Content-Length", decimal: UInt64.max, into: &out)
        #expect(String(decoding: out, as: UTF8.self) == "Content-Length: 18446744073709551615\r\n")
        // A status line takes any Int (an own response's status is not range-checked there).
        out = []
        HTTP1Encoder.appendStatusLine(status: Int.min, reason: Array("X".utf8), into: &out)
        #expect(String(decoding: out, as: UTF8.self) == "HTTP/1.1 -9223372036854775808 X\r\n")
        out = []
        HTTP1Encoder.appendStatusLine(status: 0, reason: Array("X".utf8), into: &out)
        #expect(String(decoding: out, as: UTF8.self) == "HTTP/1.1 0 X\r\n")
    }
}
