import Foundation
import Testing
import FaultlineTestSupport

/// Each request RFC 9113 §8.2 and §8.3 call malformed, sent verbatim by h2probe.py: the
/// client sees RST_STREAM PROTOCOL_ERROR on that stream, the connection serves the next
/// stream, and nothing reaches the HTTP/1 origin. The accepted translations (`te: trailers`,
/// an agreeing Host, cookie crumbs, `:authority` as Host) are checked at the origin.
// One test at a time: its Python clients, floods and megabyte transfers would otherwise all
// load the machine at once, beside the timing-sensitive tests of the rest of the suite.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct HTTP2HeaderValidationTests {
    /// A valid GET of `/refused?case=NAME` (a path the origin must never see) plus `extra`.
    private static func request(_ name: String, _ extra: [[String]] = []) -> [[String]] {
        [[":method", "GET"], [":scheme", "http"], [":authority", "127.0.0.1"], [":path", "/refused?case=\(name)"]] + extra
    }

    static let malformed: [(String, [[String]])] = [
        ("connection", request("connection", [["connection", "close"]])),
        ("keep-alive", request("keep-alive", [["keep-alive", "timeout=5"]])),
        ("proxy-connection", request("proxy-connection", [["proxy-connection", "keep-alive"]])),
        ("transfer-encoding", request("transfer-encoding", [["transfer-encoding", "chunked"]])),
        ("upgrade", request("upgrade", [["upgrade", "websocket"]])),
        ("te-gzip", request("te-gzip", [["te", "gzip"]])),
        ("te-trailers-gzip", request("te-trailers-gzip", [["te", "trailers, gzip"]])),
        ("cr", request("cr", [["x-value", "a\rb"]])),
        ("lf", request("lf", [["x-value", "a\nb"]])),
        ("nul", request("nul", [["x-value", "a\u{0}b"]])),
        ("uppercase", request("uppercase", [["X-Upper", "1"]])),
        ("pseudo-after-regular", [[":method", "GET"], [":scheme", "http"], ["x-first", "1"], [":authority", "127.0.0.1"],
                                  [":path", "/refused?case=pseudo-after-regular"]]),
        ("repeated-path", request("repeated-path", [[":path", "/refused?case=repeated-path-2"]])),
        ("repeated-method", request("repeated-method", [[":method", "POST"]])),
        ("missing-method", Array(request("missing-method").dropFirst())),
        ("missing-scheme", request("missing-scheme").filter { $0[0] != ":scheme" }),
        ("missing-path", request("missing-path").filter { $0[0] != ":path" }),
        ("unknown-pseudo", request("unknown-pseudo", [[":protocol-x", "1"]])),
        ("host-conflicts", request("host-conflicts", [["host", "other.example"]])),
    ]

    @Test func everyMalformedRequestIsAStreamErrorAndTheConnectionGoesOn() async throws {
        let stack = try await HTTP2ConformanceStack.start()
        for (name, headers) in Self.malformed {
            let report = try await stack.probe([
                ["do": "headers", "label": "bad", "headers": headers, "end_stream": true],
                ["do": "wait", "for": "end", "stream": "bad"],
                ["do": "request", "label": "next", "path": "/next?after=\(name)"],
            ])
            let bad = report.stream(labelled: "bad")
            #expect(bad?.reset?.name == "PROTOCOL_ERROR" && bad?.status == nil, "\(name): \(report)")
            #expect(report.stream(labelled: "next")?.status == 200 && report.goaway == nil && !report.closed, "\(name): \(report)")
        }
        #expect(stack.origin.requests(to: "/refused").isEmpty, "\(stack.origin.requests(to: "/refused"))")
        #expect(stack.origin.requests(to: "/next").count == Self.malformed.count)
    }

    /// `:path` bytes the HTTP/1 listener refuses in a request target (anything outside
    /// 0x21-0x7E: here bytes nghttp2 lets through, 0x80-0xFF) are refused over HTTP/2 too:
    /// a stream error, nothing at the origin, and the same target over HTTP/1 gets 400.
    @Test func aPathWithBytesHTTP1RefusesIsAStreamErrorAndNeverReachesTheOrigin() async throws {
        let stack = try await HTTP2ConformanceStack.start()
        // "/refused" followed by the bytes.
        let cases: [(String, String)] = [("ff80", "ff80"), ("utf8", "c3a9"), ("query-high", "3f613dff")]
        for (name, tail) in cases {
            let path = "2f72656675736564" + tail
            let headers: [[Any]] = [[":method", "GET"], [":scheme", "http"], [":authority", "127.0.0.1"], [":path", ["hex": path]]]
            let report = try await stack.probe([
                ["do": "headers", "label": "bad", "headers": headers, "end_stream": true],
                ["do": "wait", "for": "end", "stream": "bad"],
                ["do": "request", "label": "next", "path": "/next?after=\(name)"],
            ])
            let bad = report.stream(labelled: "bad")
            #expect(bad?.reset?.name == "PROTOCOL_ERROR" && bad?.status == nil, "\(name): \(report)")
            #expect(report.stream(labelled: "next")?.status == 200 && report.goaway == nil && !report.closed, "\(name): \(report)")

            // The same target on HTTP/1 (the h2c listener speaks HTTP/1.1 without the preface).
            let target = Self.bytes(hex: path)
            let reply = try await Blocking.run {
                let client = try RawClient(port: stack.proxy.port)
                try client.send(Array("GET ".utf8) + target + Array(" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
                return client.readResponses(1)
            }
            #expect(reply.responses.first?.status == 400, "\(name): HTTP/1 \(reply)")
        }
        #expect(stack.origin.requests(to: "/refused").isEmpty, "\(stack.origin.requests(to: "/refused"))")
        #expect(stack.origin.requests(to: "/next").count == cases.count)
    }

    private static func bytes(hex: String) -> [UInt8] {
        var out: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex, let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex),
              let byte = UInt8(hex[index..<next], radix: 16) {
            out.append(byte)
            index = next
        }
        return out
    }

    @Test func contentLengthThatDisagreesWithTheDataIsAStreamError() async throws {
        let stack = try await HTTP2ConformanceStack.start()
        let head = [[":method", "POST"], [":scheme", "http"], [":authority", "127.0.0.1"], [":path", "/refused?case=length"],
                    ["content-length", "10"]]
        for (name, body) in [("more", "0123456789ABC"), ("less", "0123")] {
            let report = try await stack.probeFrames([
                ["do": "headers", "label": "bad", "headers": head],
                ["do": "data", "stream": "bad", "data": body, "end_stream": true],
                ["do": "wait", "for": "end", "stream": "bad"],
                ["do": "request", "label": "next", "path": "/next?after=\(name)"],
            ])
            // One RST_STREAM, PROTOCOL_ERROR (RFC 9113 §8.1.1), and nothing more on the stream.
            let resets = HTTP2ConformanceStack.frames(report, stream: 1).filter { $0["name"] as? String == "RSTSTREAM" }
            #expect(resets.map { $0["code"] as? Int } == [1], "\(name): \(HTTP2ConformanceStack.frames(report, stream: 1))")
            let next = HTTP2ConformanceStack.frames(report, stream: 3)
            #expect(next.contains { ($0["flags"] as? [String])?.contains("END_STREAM") == true }, "\(name): \(report)")
            #expect(report["goaway"] is NSNull, "\(name): \(report)")
        }
        // A declared length this small is held until the stream ends: the origin saw nothing.
        #expect(stack.origin.heads(to: "/refused").isEmpty, "\(stack.origin.heads(to: "/refused"))")
        try await Deadline.poll("the records of the two refused bodies", timeout: .seconds(5)) {
            stack.records.filter { ($0["url.path"] as? String) == "/refused" }.count == 2 ? () : nil
        }
        for record in stack.records where record["url.path"] as? String == "/refused" {
            #expect(record["http2.error_code"] as? String == "PROTOCOL_ERROR" && record["error.type"] as? String == "bad_request",
                    "\(record)")
        }
    }

    /// Requests whose stream ends in a protocol error after a valid head: held until END_STREAM
    /// (their declared length is small), so none reaches the origin, not even its head.
    @Test func aHeldRequestTheStreamRefusesSendsTheOriginNothing() async throws {
        let stack = try await HTTP2ConformanceStack.start()
        func head(_ name: String, length: Int) -> [[String]] {
            [[":method", "POST"], [":scheme", "http"], [":authority", "127.0.0.1"], [":path", "/refused?case=\(name)"],
             ["content-length", String(length)]]
        }
        let cases: [(name: String, length: Int, body: String)] = [("short", 50, "12345"), ("zero-then-data", 0, "abc"),
                                                                   ("one-then-two", 1, "xy")]
        for item in cases {
            let report = try await stack.probe([
                ["do": "headers", "label": "bad", "headers": head(item.name, length: item.length)],
                ["do": "data", "stream": "bad", "data": item.body, "end_stream": true],
                ["do": "wait", "for": "end", "stream": "bad"],
                ["do": "request", "label": "next", "path": "/next?after=\(item.name)"],
            ])
            #expect(report.stream(labelled: "bad")?.reset?.name == "PROTOCOL_ERROR", "\(item.name): \(report)")
            #expect(report.stream(labelled: "next")?.status == 200 && report.goaway == nil, "\(item.name): \(report)")
        }
        // A held request the client resets before its end: nothing either.
        let cancelled = try await stack.probe([
            ["do": "headers", "label": "cancelled", "headers": head("cancelled", length: 10)],
            ["do": "data", "stream": "cancelled", "data": "12345"],
            ["do": "sleep", "seconds": 0.5],
            ["do": "rst", "stream": "cancelled", "code": 8],
            ["do": "request", "label": "next", "path": "/next?after=cancelled"],
        ])
        #expect(cancelled.stream(labelled: "next")?.status == 200, "\(cancelled)")
        _ = try await Deadline.poll("the four /next requests", timeout: .seconds(5)) {
            stack.origin.requests(to: "/next").count == cases.count + 1 ? () : nil
        }
        #expect(stack.origin.heads(to: "/refused").isEmpty, "\(stack.origin.heads(to: "/refused"))")
        #expect(stack.origin.closedByPeer == 0)
    }

    /// Within the limit a request is held and then forwarded whole; above it (and without a
    /// declared length) it streams: the origin has its head before the client ends the stream.
    @Test func smallRequestsAreForwardedWholeAndLargeOnesStream() async throws {
        let stack = try await HTTP2ConformanceStack.start(http2: #"{"max_buffered_request_body": 1000}"#)
        func head(_ path: String, length: Int?) -> [[String]] {
            [[":method", "POST"], [":scheme", "http"], [":authority", "127.0.0.1"], [":path", path]]
                + (length.map { [["content-length", String($0)]] } ?? [])
        }
        let report = try await stack.probe([
            ["do": "headers", "label": "held", "headers": head("/held", length: 1000)],
            ["do": "data", "stream": "held", "size": 600],
            ["do": "headers", "label": "large", "headers": head("/large", length: 1001)],
            ["do": "data", "stream": "large", "size": 600],
            ["do": "headers", "label": "unknown", "headers": head("/unknown", length: nil)],
            ["do": "data", "stream": "unknown", "size": 600],
            ["do": "sleep", "seconds": 1.5],
            ["do": "data", "stream": "held", "size": 400, "end_stream": true],
            ["do": "data", "stream": "large", "size": 401, "end_stream": true],
            ["do": "data", "stream": "unknown", "size": 400, "end_stream": true],
        ])
        for label in ["held", "large", "unknown"] {
            #expect(report.stream(labelled: label)?.status == 200, "\(label): \(report)")
        }
        let sizes = ["/held": 1000, "/large": 1001, "/unknown": 1000]
        for (path, size) in sizes {
            #expect(stack.origin.requests(to: path).first?["body_bytes"] as? Int == size, "\(path): \(stack.origin.requests(to: path))")
        }
        // The streamed heads reached the origin during the pause, the held one only after it:
        // the origin logs lines in arrival order.
        let order = stack.origin.heads.compactMap { $0["target"] as? String }
        let held = try #require(order.firstIndex(of: "/held"), "\(order)")
        #expect(order.firstIndex(of: "/large").map { $0 < held } == true && order.firstIndex(of: "/unknown").map { $0 < held } == true,
                "\(order)")
    }

    /// The RST_STREAM and GOAWAY nghttp2 sends by itself (a CR in a field value, a zero
    /// WINDOW_UPDATE) are counted like those Faultline submits: the counters in GET /metrics
    /// are the frames the client received.
    @Test func theCountersCountTheFramesNghttp2SendsItself() async throws {
        let stack = try await HTTP2ConformanceStack.start()
        let report = try await stack.probe([
            ["do": "headers", "label": "cr", "headers": Self.request("counted-cr", [["x-value", "a\rb"]]), "end_stream": true],
            ["do": "wait", "for": "reset", "stream": "cr"],
            // WINDOW_UPDATE on stream 0 with an increment of 0: a connection error (RFC 9113 §6.9).
            ["do": "raw", "hex": "000004080000000000" + "00000000"],
            ["do": "wait", "for": "goaway"],
        ], ["final_wait": false])
        #expect(report.stream(labelled: "cr")?.reset?.name == "PROTOCOL_ERROR", "\(report)")
        #expect(report.goaway?.name == "PROTOCOL_ERROR", "\(report)")
        let seen = ["streams_reset_by_faultline": report.frames["RSTSTREAM"] ?? 0, "goaways_sent": report.frames["GOAWAY"] ?? 0]
        #expect(seen == ["streams_reset_by_faultline": 1, "goaways_sent": 1], "\(report.frames)")
        let counted = try await stack.http2Metrics(expecting: seen)
        #expect(counted == seen, "\(counted)")
        #expect(stack.origin.heads(to: "/refused").isEmpty)
    }

    @Test func acceptedFieldsAreTranslatedForTheHTTP1Origin() async throws {
        let stack = try await HTTP2ConformanceStack.start()
        let report = try await stack.probe([
            ["do": "request", "label": "agree", "path": "/agree", "authority": "api.example:8080",
             "extra": [["host", "API.example:8080"]]],
            ["do": "request", "label": "cookies", "path": "/cookies", "authority": "shop.example",
             "extra": [["cookie", "a=1"], ["x-between", "1"], ["cookie", "b=2"], ["cookie", "c=3"]]],
            ["do": "request", "label": "te", "path": "/te", "extra": [["te", "trailers"]]],
        ])
        for label in ["agree", "cookies", "te"] {
            #expect(report.stream(labelled: label)?.status == 200, "\(label): \(report)")
        }
        func fields(_ path: String, _ name: String) -> [String] {
            let headers = stack.origin.requests(to: path).first?["headers"] as? [[String]] ?? []
            return headers.filter { $0.first?.lowercased() == name }.compactMap(\.last)
        }
        // An agreeing Host folds into the one Host :authority becomes.
        #expect(fields("/agree", "host") == ["api.example:8080"], "\(stack.origin.requests(to: "/agree"))")
        #expect(fields("/cookies", "host") == ["shop.example"])
        #expect(fields("/cookies", "cookie") == ["a=1; b=2; c=3"], "\(stack.origin.requests(to: "/cookies"))")
        #expect(fields("/te", "te").allSatisfy { $0 == "trailers" } && stack.origin.requests(to: "/te").count == 1)
    }
}
