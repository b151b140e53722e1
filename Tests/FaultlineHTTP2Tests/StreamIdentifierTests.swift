import Testing
import FaultlineHTTP
@testable import FaultlineHTTP2

/// RFC 9113 §5.1.1: opening a stream closes the lower idle ones, so a HEADERS frame on a
/// stream id the client skipped is a connection error PROTOCOL_ERROR; one on a lower stream
/// the client did open (trailers) is not.
@Suite("HTTP/2 stream identifiers")
struct StreamIdentifierTests {
    /// GOAWAY frames in a server's output: (last stream id, error code).
    static func goaways(_ bytes: [UInt8]) -> [(last: UInt32, code: UInt32)] {
        Frames.parse(bytes).filter { $0.type == 0x7 && $0.payload.count >= 8 }.map { frame in
            let word = { (at: Int) in frame.payload[at..<(at + 4)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } }
            return (word(0) & 0x7fff_ffff, word(4))
        }
    }

    @Test func headersOnASkippedStreamIsAConnectionError() throws {
        let server = try HTTP2Session(role: .server)
        let events = server.receive(Frames.preface + Frames.request(stream: 5, []) + Frames.request(stream: 3, []))
        var out: [UInt8] = []
        server.send(into: &out)
        #expect(events.contains { if case .connectionError(let failure) = $0 { failure.message.contains("stream 3") } else { false } })
        #expect(Self.goaways(out).map(\.code) == [1] && Self.goaways(out).first?.last == 5, "\(Self.goaways(out))")
        #expect(events.blocks(3).isEmpty)
    }

    @Test func headersOnALowerStreamTheClientOpenedIsNoConnectionError() throws {
        let server = try HTTP2Session(role: .server)
        // Stream 1 stays open (no END_STREAM), 3 opens, then 1 gets its trailers.
        var first = Frames.request(stream: 1, [])
        first[4] = 0x4
        let trailers = Frames.frame(type: 0x1, flags: 0x5, stream: 1, payload: [0x00, 1] + Array("x".utf8) + [1] + Array("1".utf8))
        let events = server.receive(Frames.preface + first + Frames.request(stream: 3, []) + trailers)
        #expect(!events.contains { if case .connectionError = $0 { true } else { false } })
        #expect(events.blocks(1).count == 2 && events.blocks(3).count == 1)
    }

    @Test func skippedRangesAreRememberedUpToTheLimit() {
        var ids = HTTP2SkippedStreamIDs()
        // 7 skips 1, 3 and 5; trailers on 7 and the next id, 9, are fine; an even id is
        // nghttp2's to refuse; the largest id leaves a gap below it like any other.
        let verdicts = [7, 3, 1, 7, 9, 2, Int32.max, Int32.max - 2].map { ids.headersBegin(streamID: $0) }
        #expect(verdicts == [true, false, false, true, true, true, true, false])
        // Every later gap pushes an old one out: the oldest ranges are forgotten, not refused.
        var many = HTTP2SkippedStreamIDs()
        let opened = (0...HTTP2SkippedStreamIDs.limit).map { many.headersBegin(streamID: Int32(4 * $0 + 3)) }
        let oldest = many.headersBegin(streamID: 1)
        let kept = many.headersBegin(streamID: 5)
        #expect(!opened.contains(false) && oldest && !kept)
    }
}
