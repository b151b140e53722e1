import Testing
import FaultlineHTTP
import FaultlineTestSupport

/// A reset decoder (the proxy hands a closed connection's decoder to the next one) decodes
/// exactly as a new one does, whatever state the last connection left it in: mid request
/// line, mid name, mid value, mid body, mid trailers, failed, or after a large head. Nothing
/// of the earlier bytes may show in a later message.
@Suite struct DecoderResetTests {
    /// What a first connection may have sent before it went away.
    static let leftovers: [String] = [
        "GET /leftover-target-",
        "GET /x HTTP/1.1\r\nHost: leftover\r\nX-Leftover-Na",
        "GET /x HTTP/1.1\r\nHost: leftover\r\nX-Leftover: secret-value-",
        "GET /x HTTP/1.1\r\nHost: leftover\r\nX-Leftover: secret\r\n",
        "POST /x HTTP/1.1\r\nHost: leftover\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab",
        "POST /x HTTP/1.1\r\nHost: leftover\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX-Trailer-Leftover: t",
        "POST /x HTTP/1.1\r\nHost: leftover\r\nContent-Length: 10\r\n\r\nabc",
        "GET /x HTTP/1.1\r\nHost: leftover\r\n: empty name\r\n\r\n",
        "GET /x HTTP/1.1\r\nHost: leftover\r\nX-Folded: a\r\n b\r\n\r\n",
        "GET /x HTTP/1.1\r\nHost: leftover\r\n" + (0..<60).map { "X-Leftover-\($0): \(String(repeating: "v", count: 90))\r\n" }.joined(),
        "GET /done HTTP/1.1\r\nHost: leftover\r\nX-Leftover: whole\r\n\r\nGET /pipelined-leftover HTTP/1.1\r\nHost: l",
        "GET /x HTTP/1.1\r\nUpgrade: websocket\r\nConnection: upgrade\r\nHost: leftover\r\n\r\ntunnel bytes",
    ]

    /// What the next connection sends.
    static let next: [String] = [
        "GET /after HTTP/1.1\r\nHost: after.test\r\nX-Probe: 1\r\n\r\n",
        "POST /after/post?q=1 HTTP/1.1\r\nHost: after.test\r\nContent-Length: 5\r\n\r\nhelloGET /second HTTP/1.1\r\nHost: b\r\n\r\n",
        "POST /after/chunked HTTP/1.1\r\nHost: after.test\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\nX-T: 1\r\n\r\n",
        "GET /after HTTP/1.0\r\nHost: after.test\r\n\r\n",
    ]

    @Test func aResetDecoderDecodesEveryNextInputAsANewOneDoes() {
        for leftover in Self.leftovers {
            for next in Self.next {
                let decoder = HTTP1Decoder(kind: .request)
                _ = decode(Array(leftover.utf8), kind: .request, reused: decoder)
                decoder.reset(limits: HTTP1DecoderLimits())
                let reused = decode(Array(next.utf8), kind: .request, reused: decoder)
                let fresh = decode(Array(next.utf8), kind: .request)
                #expect(reused == fresh, "after \(leftover.debugDescription), \(next.debugDescription)")
                #expect(!"\(reused)".contains("eftover"), "after \(leftover.debugDescription): \(reused)")
            }
        }
    }

    /// Cut points chosen by a seeded generator: every split of the leftover and of the next
    /// input gives the fresh decoder's transcript.
    @Test func randomSplitsAfterAResetMatchAFreshDecoder() {
        let seed = UInt64.random(in: 1...UInt64.max)
        var generator = SplitMix64(seed: seed)
        for round in 0..<300 {
            let leftover = Array(Self.leftovers[Int(generator.next() % UInt64(Self.leftovers.count))].utf8)
            let next = Array(Self.next[Int(generator.next() % UInt64(Self.next.count))].utf8)
            let leftoverCuts = (0..<3).map { _ in Int(generator.next() % UInt64(leftover.count + 1)) }
            let nextCuts = (0..<3).map { _ in Int(generator.next() % UInt64(next.count + 1)) }
            let decoder = HTTP1Decoder(kind: .request)
            _ = decode(leftover, kind: .request, cuts: leftoverCuts, reused: decoder)
            decoder.reset(limits: HTTP1DecoderLimits())
            let reused = decode(next, kind: .request, cuts: nextCuts, reused: decoder)
            let fresh = decode(next, kind: .request)
            #expect(reused == fresh, "seed \(seed), round \(round): cuts \(leftoverCuts) then \(nextCuts)")
        }
    }

    @Test func resetTakesTheNewLimits() {
        let decoder = HTTP1Decoder(kind: .request, limits: HTTP1DecoderLimits(maxHeaderCount: 100))
        let request = Array(("GET / HTTP/1.1\r\nHost: a\r\n" + (0..<5).map { "X-\($0): v\r\n" }.joined() + "\r\n").utf8)
        #expect(decode(request, kind: .request, reused: decoder).failure == nil)
        decoder.reset(limits: HTTP1DecoderLimits(maxHeaderCount: 3))
        #expect(decoder.limits.maxHeaderCount == 3)
        #expect(decode(request, kind: .request, reused: decoder).failure?.kind == .tooManyHeaders)
    }

    @Test func aResetResponseDecoderForgetsAHeadRequest() {
        let decoder = HTTP1Decoder(kind: .response)
        decoder.responseHasNoBody = true
        _ = decode(Array("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n".utf8), kind: .response, reused: decoder)
        decoder.reset(limits: HTTP1DecoderLimits())
        let response = Array("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello".utf8)
        #expect(decode(response, kind: .response, reused: decoder) == decode(response, kind: .response))
    }
}
