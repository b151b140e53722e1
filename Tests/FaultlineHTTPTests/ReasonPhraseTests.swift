import Testing
import FaultlineHTTP

/// A response's reason phrase: the standard one for its status is kept as an empty `reason`
/// (writers expand it to the same text, and no buffer is allocated per response); any other
/// phrase, even one that starts with the standard text, is written back byte for byte
/// wherever the input is split.
@Suite struct ReasonPhraseTests {
    /// The reason the decoder kept for `input` fed in two pieces cut at `cut`.
    static func reason(_ input: String, cut: Int) -> [UInt8]? {
        let decoder = HTTP1Decoder(kind: .response, limits: HTTP1DecoderLimits())
        let bytes = Array(input.utf8)
        for piece in [Array(bytes[..<cut]), Array(bytes[cut...])] where !piece.isEmpty {
            _ = piece.withUnsafeBytes { decoder.feed($0) }
            if decoder.events.contains(.head) { return decoder.head.reason }
        }
        return nil
    }

    @Test func theStandardPhraseIsKeptEmptyAndEveryPhraseIsWrittenBackExactlyAtEverySplit() {
        let cases: [(String, String)] = [
            ("200 OK", ""), ("404 Not Found", ""), ("503 Service Unavailable", ""),
            ("200 OK Computer", "OK Computer"), ("404 Not found", "Not found"), ("200 O", "O"),
            ("500 OK", "OK"), ("200 OKAY", "OKAY"), ("599 Whatever", "Whatever"),
        ]
        for (statusLine, kept) in cases {
            let input = "HTTP/1.1 \(statusLine)\r\nContent-Length: 0\r\n\r\n"
            // In one piece: the standard phrase costs nothing.
            #expect(Self.reason(input, cut: 0) == Array(kept.utf8), "\(statusLine.debugDescription)")
            // Cut anywhere (a phrase split across reads may be kept as text): written back the same.
            for cut in 0..<input.utf8.count {
                guard let reason = Self.reason(input, cut: cut) else {
                    Issue.record("no head for \(statusLine.debugDescription) cut at \(cut)")
                    continue
                }
                var out: [UInt8] = []
                HTTP1Encoder.appendStatusLine(status: Int(statusLine.prefix(3)) ?? 0, reason: reason, into: &out)
                #expect(String(decoding: out, as: UTF8.self) == "HTTP/1.1 \(statusLine)\r\n", "cut at \(cut)")
            }
        }
    }

    @Test func anEmptyReasonIsWrittenAsTheStandardOne() {
        var out: [UInt8] = []
        HTTP1Encoder.appendStatusLine(status: 404, reason: [], into: &out)
        #expect(String(decoding: out, as: UTF8.self) == "HTTP/1.1 404 Not Found\r\n")
    }
}
