import Testing
import FaultlineHTTP

@Suite("HTTP/1 decoder")
struct HTTP1DecoderTests {
    static let pipelined = "GET /a?q=1 HTTP/1.1\r\nHost: example.com\r\nX-Multi:  v1 \r\n\r\n"
        + "POST /b HTTP/1.1\r\nHost: example.com\r\nContent-Length: 5\r\n\r\nhello"
        + "PUT /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;ext=1\r\nde\r\n0\r\nX-Trailer: t1\r\n\r\n"

    @Test func pipelinedRequestsDecodeInOrder() {
        let transcript = decode(Self.pipelined.bytes, kind: .request)
        #expect(transcript.failure == nil)
        #expect(transcript.heads == [
            "GET /a?q=1 1.1 ka=true chunked=false cl=- up=false [Host=example.com;X-Multi=v1]",
            "POST /b 1.1 ka=true chunked=false cl=5 up=false [Host=example.com;Content-Length=5]",
            "PUT /c 1.1 ka=true chunked=true cl=- up=false [Host=h;Transfer-Encoding=chunked]",
        ])
        #expect(transcript.bodies == [[], "hello".bytes, "abcde".bytes])
        #expect(transcript.trailers == [["X-Trailer=t1"]])
        #expect(transcript.ends == 3)
    }

    @Test func everySplitGivesTheSameTranscript() {
        let input = Self.pipelined.bytes
        let whole = decode(input, kind: .request)
        for cut in 1..<input.count {
            #expect(decode(input, kind: .request, cuts: [cut]) == whole, "split at \(cut)")
        }
        let byteByByte = decode(input, kind: .request, cuts: Array(1..<input.count))
        #expect(byteByByte == whole)
    }

    @Test func responsesWithEveryFraming() {
        let input = ("HTTP/1.1 100 Continue\r\n\r\n"
            + "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc"
            + "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\nT: v\r\n\r\n"
            + "HTTP/1.1 204 No Content\r\n\r\n"
            + "HTTP/1.0 200 OK\r\n\r\nclose-delimited").bytes
        let whole = decode(input, kind: .response, finish: true)
        #expect(whole.failure == nil)
        #expect(whole.heads.map { String($0.prefix(3)) } == ["100", "200", "200", "204", "200"])
        #expect(whole.bodies == [[], "abc".bytes, "x".bytes, [], "close-delimited".bytes])
        #expect(whole.trailers == [["T=v"]])
        #expect(whole.ends == 5)
        let byteByByte = decode(input, kind: .response, cuts: Array(1..<input.count), finish: true)
        #expect(byteByByte == whole)
    }

    @Test func headResponseHasNoBodyDespiteContentLength() {
        let input = "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n".bytes
        let transcript = decode(input, kind: .response, headResponse: true)
        #expect(transcript.ends == 1)
        #expect(transcript.bodies == [[]])
    }

    @Test func upgradeStopsAtTheTunnel() {
        let input = "GET /ws HTTP/1.1\r\nHost: h\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n\u{1}\u{2}raw".bytes
        let transcript = decode(input, kind: .request)
        #expect(transcript.heads.count == 1)
        #expect(transcript.heads.first?.contains("up=true") == true)
        #expect(transcript.upgradedRest == "\u{1}\u{2}raw".bytes)
    }

    @Test func cutResponseIsReportedOnFinish() {
        let transcript = decode("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc".bytes, kind: .response, finish: true)
        #expect(transcript.failure?.kind == .incomplete)
    }

    @Test(arguments: [
        ("both lengths", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"),
        ("invalid length", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1x\r\n\r\n"),
        ("differing lengths", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd"),
        ("obs-fold", "GET / HTTP/1.1\r\nHost: h\r\nX-Folded: a\r\n b\r\n\r\n"),
        ("bare CR", "GET / HTTP/1.1\r\nHost: h\r\nX-A: a\rb\r\n\r\n"),
        ("bare CR line end", "GET / HTTP/1.1\rHost: h\r\n\r\n"),
        ("garbage", "\u{0}\u{1}\u{2} nonsense\r\n\r\n"),
        ("space in name", "GET / HTTP/1.1\r\nBad Name: v\r\n\r\n"),
        ("bad version", "GET / HTTP/9.x\r\n\r\n"),
    ])
    func strictParsingRefuses(_ name: String, _ input: String) {
        let transcript = decode(input.bytes, kind: .request)
        #expect(transcript.failure?.kind == .malformed, "\(name): \(transcript)")
        #expect(transcript.failure?.status == 400)
    }

    /// A control byte in a field value (NUL, a bare CR or LF, any other C0 byte, DEL) is
    /// refused, in a request or a response, in plain fields and in the ones llhttp reads
    /// itself (Connection, Content-Length, Transfer-Encoding, Upgrade), fed whole or one byte
    /// at a time. The decoder relies on llhttp's strict value grammar for this and scans no
    /// value itself: this is the guarantee it relies on.
    @Test(arguments: ["X-A", "Connection", "Content-Length", "Transfer-Encoding", "Upgrade", "Host"])
    func controlBytesInValuesAreRefused(_ field: String) {
        let values: [String: String] = ["Connection": "close", "Content-Length": "0", "Transfer-Encoding": "chunked",
                                        "Upgrade": "websocket", "Host": "h", "X-A": "abc"]
        let value = values[field] ?? "abc"
        for control: UInt8 in [0x00, 0x01, 0x08, 0x0A, 0x0B, 0x0D, 0x1F, 0x7F] {
            for position in [0, 1, value.utf8.count] {
                var bytes = Array(value.utf8)
                bytes.insert(control, at: position)
                let line = Array("\(field): ".utf8) + bytes + Array("\r\n".utf8)
                let request = Array("GET / HTTP/1.1\r\n".utf8) + line + Array("Host: h\r\n\r\n".utf8)
                let response = Array("HTTP/1.1 200 OK\r\n".utf8) + line + Array("Content-Length: 0\r\n\r\n".utf8)
                for (kind, input) in [(HTTP1Decoder.Kind.request, request), (.response, response)] {
                    let whole = decode(input, kind: kind)
                    let bytewise = decode(input, kind: kind, cuts: Array(1..<input.count))
                    let what = "\(kind) \(field) byte \(control) at \(position)"
                    #expect(whole.failure != nil && whole.heads.isEmpty, "\(what): \(whole)")
                    #expect(bytewise.failure != nil && bytewise.heads.isEmpty, "\(what), byte by byte: \(bytewise)")
                }
            }
        }
    }

    /// Where each field ends is inferred from the next piece (a name after a value closes the
    /// value; the first value piece closes the name): empty values (first, between, last,
    /// whitespace only), an empty name, names and values cut anywhere, and trailers give the
    /// same fields whichever way the bytes are split.
    @Test func fieldBoundariesHoldAtEverySplit() {
        let request = "POST /f HTTP/1.1\r\nX-Empty:\r\nHost: h\r\nX-Blank:   \r\nX-Mid:\r\nX-Tab:\tv\t\r\n"
            + "Transfer-Encoding: chunked\r\nX-Last:\r\n\r\n3\r\nabc\r\n0\r\nT-Empty:\r\nT-One: 1\r\nT-Last:\r\n\r\n"
        let expectedHead = "POST /f 1.1 ka=true chunked=true cl=- up=false "
            + "[X-Empty=;Host=h;X-Blank=;X-Mid=;X-Tab=v;Transfer-Encoding=chunked;X-Last=]"
        let input = request.bytes
        let whole = decode(input, kind: .request)
        #expect(whole.heads == [expectedHead], "\(whole)")
        #expect(whole.trailers == [["T-Empty=", "T-One=1", "T-Last="]], "\(whole)")
        for cut in 1..<input.count {
            let split = decode(input, kind: .request, cuts: [cut])
            #expect(split == whole, "cut at \(cut): \(split)")
        }
        let bytewise = decode(input, kind: .request, cuts: Array(1..<input.count))
        #expect(bytewise == whole, "byte by byte: \(bytewise)")
        let response = "HTTP/1.1 200 OK\r\nX-A:\r\nContent-Length: 2\r\nX-B:\r\n\r\nok".bytes
        let answered = decode(response, kind: .response, cuts: Array(1..<response.count))
        #expect(answered.heads == ["200 1.1 ka=true chunked=false cl=2 up=false [X-A=;Content-Length=2;X-B=]"], "\(answered)")
        for empty in ["GET / HTTP/1.1\r\n: x\r\nHost: h\r\n\r\n", "GET / HTTP/1.1\r\nHost: h\r\n:\r\n\r\n",
                      "GET / HTTP/1.1\r\nHost: h\r\n: \r\n\r\n"] {
            let refused = decode(empty.bytes, kind: .request, cuts: Array(1..<empty.utf8.count))
            #expect(refused.failure?.kind == .malformed && refused.heads.isEmpty, "\(empty.debugDescription): \(refused)")
        }
    }

    @Test func limitsMapToTheirStatus() {
        let limits = HTTP1DecoderLimits(maxTargetBytes: 16, maxHeaderBytes: 64, maxHeaderCount: 3)
        let longTarget = decode("GET /\(String(repeating: "a", count: 40)) HTTP/1.1\r\n\r\n".bytes, kind: .request, limits: limits)
        #expect(longTarget.failure?.status == 414)
        let bigHeader = decode("GET / HTTP/1.1\r\nX: \(String(repeating: "b", count: 100))\r\n\r\n".bytes, kind: .request, limits: limits)
        #expect(bigHeader.failure?.status == 431)
        let many = decode("GET / HTTP/1.1\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\n\r\n".bytes, kind: .request, limits: limits)
        #expect(many.failure?.kind == .tooManyHeaders)
        #expect(many.failure?.status == 431)
    }

    @Test func http10DefaultsToClose() {
        let transcript = decode("GET / HTTP/1.0\r\nHost: h\r\n\r\n".bytes, kind: .request)
        #expect(transcript.heads == ["GET / 1.0 ka=false chunked=false cl=- up=false [Host=h]"])
        let keepAlive = decode("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n".bytes, kind: .request)
        #expect(keepAlive.heads.first?.contains("ka=true") == true)
    }

    /// The common methods are spelled from a table, the rest by llhttp: each name comes back
    /// as the client sent it.
    @Test func everyMethodKeepsItsName() {
        let methods = ["GET", "POST", "HEAD", "PUT", "DELETE", "OPTIONS", "PATCH", "TRACE", "PROPFIND", "PURGE", "MKCOL",
                       "LOCK", "REPORT"]
        for method in methods {
            let transcript = decode("\(method) /m HTTP/1.1\r\nHost: h\r\nContent-Length: 0\r\n\r\n".bytes, kind: .request)
            #expect(transcript.heads.first?.hasPrefix("\(method) /m ") == true, "\(method): \(transcript)")
        }
        let connect = decode("CONNECT h:443 HTTP/1.1\r\nHost: h:443\r\n\r\n".bytes, kind: .request)
        #expect(connect.heads.first?.hasPrefix("CONNECT h:443 ") == true, "\(connect)")
    }
}
