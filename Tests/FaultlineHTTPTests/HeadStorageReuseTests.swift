import Testing
import FaultlineHTTP

/// A decoder reuses the storage of a message's head for the next one (keep-alive costs no
/// allocation for it): nothing of an earlier head may show in a later one, whether the
/// earlier head is still held (its storage then stays the holder's) or dropped.
@Suite struct HeadStorageReuseTests {
    static let messages = [
        "GET /first/long/target?with=query HTTP/1.1\r\nHost: a\r\nX-One: 1\r\nX-Two: 2\r\nX-Three: 3\r\n\r\n",
        "GET /2 HTTP/1.1\r\nHost: b\r\n\r\n",
        "POST /third HTTP/1.1\r\nHost: c\r\nContent-Length: 3\r\nX-Four: 4\r\n\r\nabc",
        "GET / HTTP/1.1\r\nHost: d\r\n\r\n",
    ]

    /// What a head said: its target, field names and Host.
    struct Summary: Equatable {
        let target: String
        let names: [String]
        let host: String?

        init(target: String, names: [String], host: String?) {
            self.target = target
            self.names = names
            self.host = host
        }

        init(_ head: HTTPHead) {
            target = head.targetString
            names = head.headers.pairs.map(\.name)
            host = head.headers.first("host")
        }
    }

    /// Feeds each message on its own (as keep-alive requests arrive); each head is summed up
    /// as it arrives, and kept (its storage shared with the decoder's spare) or dropped.
    static func summaries(keepingHeads: Bool) -> (atArrival: [Summary], atEnd: [Summary]) {
        let decoder = HTTP1Decoder(kind: .request)
        var kept: [HTTPHead] = []
        var atArrival: [Summary] = []
        for message in messages {
            let bytes = Array(message.utf8)
            _ = bytes.withUnsafeBytes { decoder.feed($0) }
            if decoder.events.contains(.head) {
                atArrival.append(Summary(decoder.head))
                if keepingHeads { kept.append(decoder.head) }
            }
            decoder.resume()
        }
        return (atArrival, kept.map(Summary.init))
    }

    static let expected = [
        Summary(target: "/first/long/target?with=query", names: ["Host", "X-One", "X-Two", "X-Three"], host: "a"),
        Summary(target: "/2", names: ["Host"], host: "b"),
        Summary(target: "/third", names: ["Host", "Content-Length", "X-Four"], host: "c"),
        Summary(target: "/", names: ["Host"], host: "d"),
    ]

    @Test func headsDroppedAsTheyArriveShowNothingOfEarlierOnes() {
        #expect(Self.summaries(keepingHeads: false).atArrival == Self.expected)
    }

    @Test func headsStillHeldAreNotChangedByLaterOnes() {
        let (atArrival, atEnd) = Self.summaries(keepingHeads: true)
        #expect(atArrival == Self.expected)
        #expect(atEnd == Self.expected)
    }
}
