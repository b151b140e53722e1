import Testing
import FaultlineHTTP

/// A decoder keeps the last head (and trailers) in place and events only point at them: the
/// head is read where it lies until the next message, lent without a copy by `withHead`, and
/// a reset leaves nothing of the connection it served to read.
@Suite struct DecoderHeadSlotTests {
    private static func feed(_ decoder: HTTP1Decoder, _ text: String) -> HTTP1DecodeStatus {
        Array(text.utf8).withUnsafeBytes { decoder.feed($0) }
    }

    @Test func theHeadStaysReadableUntilTheNextMessageBegins() {
        let decoder = HTTP1Decoder(kind: .request)
        _ = Self.feed(decoder, "GET /first HTTP/1.1\r\nHost: a\r\nX-One: 1\r\n\r\n")
        #expect(decoder.events == [.head, .end])
        #expect(decoder.head.targetString == "/first")
        #expect(decoder.head.headers.first("x-one") == "1")
        decoder.resume()
        // Bytes that do not finish the next head leave no `.head` event; the new message's
        // head is being built apart from the last one.
        _ = Self.feed(decoder, "GET /sec")
        #expect(decoder.events.isEmpty)
        _ = Self.feed(decoder, "ond HTTP/1.1\r\nHost: b\r\n\r\n")
        #expect(decoder.events == [.head, .end])
        #expect(decoder.head.targetString == "/second")
        #expect(decoder.head.headers.pairs.map(\.name) == ["Host"])
    }

    @Test func withHeadLendsTheHeadAndPutsItBack() {
        let decoder = HTTP1Decoder(kind: .response)
        _ = Self.feed(decoder, "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nX-Kept: yes\r\n\r\n")
        let (status, statusWhileLent) = decoder.withHead { head in
            (head.status, decoder.head.status)
        }
        #expect(status == 404)
        // While lent, the decoder's own slot is empty: nothing reads a stale copy.
        #expect(statusWhileLent == 0)
        #expect(decoder.head.status == 404)
        #expect(decoder.head.headers.first("x-kept") == "yes")
    }

    @Test func trailersAreReadFromTheDecoder() {
        let decoder = HTTP1Decoder(kind: .request)
        _ = Self.feed(decoder, "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\nX-Sum: 7\r\n\r\n")
        #expect(decoder.events.contains(.trailers))
        #expect(decoder.trailers.first("x-sum") == "7")
        #expect(decoder.head.isChunked)
    }

    @Test func aResetLeavesNoHeadOrTrailersOfTheLastConnection() {
        let decoder = HTTP1Decoder(kind: .request)
        _ = Self.feed(decoder, "POST /secret-target HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nX-Token: secret\r\n\r\n0\r\nX-Trailer: secret\r\n\r\n")
        #expect(decoder.head.targetString == "/secret-target")
        decoder.reset(limits: HTTP1DecoderLimits())
        #expect(decoder.events.isEmpty)
        #expect(decoder.head.target.isEmpty && decoder.head.headers.count == 0 && decoder.head.method.isEmpty)
        #expect(decoder.trailers.count == 0)
        // The next client's head shows only its own fields.
        _ = Self.feed(decoder, "GET /next HTTP/1.1\r\nHost: b\r\n\r\n")
        #expect(decoder.head.targetString == "/next")
        #expect(decoder.head.headers.pairs.map(\.name) == ["Host"])
        #expect(decoder.trailers.count == 0)
    }
}
