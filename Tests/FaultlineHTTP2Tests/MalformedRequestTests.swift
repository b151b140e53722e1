import Testing
import FaultlineHTTP
@testable import FaultlineHTTP2

/// RFC 9113 §8.2 and §8.3 cases a server must treat as malformed: nghttp2's messaging checks
/// reset the stream with PROTOCOL_ERROR before the block is handed out, and the other streams
/// of the connection go on.
@Suite("HTTP/2 malformed requests")
struct MalformedRequestTests {
    static let pseudo: [(String, String)] = [(":method", "GET"), (":scheme", "https"), (":authority", "a.test"), (":path", "/")]

    static let cases: [(String, [(String, String)])] = [
        ("connection", pseudo + [("connection", "close")]),
        ("keep-alive", pseudo + [("keep-alive", "timeout=5")]),
        ("proxy-connection", pseudo + [("proxy-connection", "keep-alive")]),
        ("transfer-encoding", pseudo + [("transfer-encoding", "chunked")]),
        ("upgrade", pseudo + [("upgrade", "h2c")]),
        ("te other than trailers", pseudo + [("te", "gzip")]),
        ("CR in value", pseudo + [("x-a", "a\rb")]),
        ("LF in value", pseudo + [("x-a", "a\nb")]),
        ("NUL in value", pseudo + [("x-a", "a\u{0}b")]),
        ("CR in name", pseudo + [("x\ra", "1")]),
        ("space in name", pseudo + [("x a", "1")]),
        ("pseudo after regular", [(":method", "GET"), (":scheme", "https"), ("x-a", "1"), (":path", "/")]),
        ("repeated :path", pseudo + [(":path", "/again")]),
        ("missing :method", [(":scheme", "https"), (":authority", "a.test"), (":path", "/")]),
        ("missing :path", [(":method", "GET"), (":scheme", "https"), (":authority", "a.test")]),
        ("missing :scheme", [(":method", "GET"), (":authority", "a.test"), (":path", "/")]),
        ("empty :path", [(":method", "GET"), (":scheme", "https"), (":authority", "a.test"), (":path", "")]),
        ("unknown pseudo-header", pseudo + [(":foo", "1")]),
        ("response pseudo-header in a request", pseudo + [(":status", "200")]),
        ("two content-lengths", pseudo + [("content-length", "1"), ("content-length", "2")]),
        ("non-numeric content-length", pseudo + [("content-length", "1x")]),
    ]

    @Test(arguments: cases.indices)
    func malformedRequestResetsOnlyItsStream(_ index: Int) throws {
        let (name, fields) = Self.cases[index]
        let pair = try SessionPair()
        let bad = try pair.client.submitRequest(fields: SessionPair.fields(fields), endStream: true)
        let good = try pair.client.submitRequest(fields: SessionPair.request(), endStream: true)
        pair.pump()
        #expect(pair.serverEvents.blocks(bad).isEmpty, "\(name): the block was handed out")
        #expect(pair.clientEvents.closeCode(bad) == .protocolError, "\(name)")
        #expect(pair.serverEvents.blocks(good).count == 1, "\(name): the other stream was affected")
        #expect(pair.client.wantsRead, "\(name): the connection ended")
    }

    /// nghttp2 lowercases names a client submits, so uppercase ones are sent as raw HPACK.
    @Test(arguments: ["X-Upper", "x-Upper", "Host", "CONTENT-LENGTH"])
    func uppercaseNameResetsTheStream(_ name: String) throws {
        let server = try HTTP2Session(role: .server)
        let events = server.receive(Frames.preface + Frames.request(stream: 1, [(name, "1")]) + Frames.request(stream: 3, []))
        var out: [UInt8] = []
        server.send(into: &out)
        #expect(events.blocks(1).isEmpty)
        #expect(events.blocks(3).count == 1)
        #expect(Frames.parse(out).contains { $0.type == 0x3 && $0.stream == 1 && $0.payload == [0, 0, 0, 1] }, "RST_STREAM PROTOCOL_ERROR")
    }

    @Test func contentLengthLargerThanTheBodyResetsTheStream() throws {
        let pair = try SessionPair()
        let id = try pair.client.submitRequest(fields: SessionPair.request(method: "POST", [("content-length", "10")]), endStream: false)
        pair.client.sendBody(streamID: id, Array("abc".utf8))
        pair.client.finishBody(streamID: id)
        pair.pump()
        #expect(pair.clientEvents.closeCode(id) == .protocolError)
        #expect(!pair.serverEvents.ended(id))
    }

    @Test func contentLengthSmallerThanTheBodyResetsTheStream() throws {
        let pair = try SessionPair()
        let id = try pair.client.submitRequest(fields: SessionPair.request(method: "POST", [("content-length", "2")]), endStream: false)
        pair.client.sendBody(streamID: id, Array("abcdef".utf8))
        pair.client.finishBody(streamID: id)
        pair.pump()
        #expect(pair.clientEvents.closeCode(id) == .protocolError)
        #expect(pair.serverEvents.body(id).count <= 2)
    }

    @Test func pathThatIsNotAbsoluteIsRefusedByTheTranslation() throws {
        let pair = try SessionPair()
        let id = try pair.client.submitRequest(fields: SessionPair.request(path: "*"), endStream: true)
        let options = try pair.client.submitRequest(fields: SessionPair.request(method: "OPTIONS", path: "*"), endStream: true)
        pair.pump()
        if let block = pair.serverEvents.blocks(id).first {
            #expect(throws: HTTP2MessageViolation.invalidPath) { try block.requestHead() }
        } else {
            #expect(pair.clientEvents.closeCode(id) == .protocolError)
        }
        #expect(try pair.serverEvents.blocks(options).first?.requestHead().targetString == "*")
    }

    @Test func headerListLargerThanTheLimitIsRefused() throws {
        let pair = try SessionPair(server: HTTP2Settings(maxHeaderListSize: 4096))
        let big = try pair.client.submitRequest(fields: SessionPair.request([("x-big", String(repeating: "a", count: 5000))]), endStream: true)
        let small = try pair.client.submitRequest(fields: SessionPair.request([("x-small", "a")]), endStream: true)
        pair.pump()
        #expect(pair.serverEvents.blocks(big).isEmpty)
        #expect(pair.serverEvents.contains { if case .refused(big, .headerListTooLarge) = $0 { true } else { false } })
        #expect(pair.serverEvents.blocks(small).count == 1)
    }
}
