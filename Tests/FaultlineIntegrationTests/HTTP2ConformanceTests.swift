import Foundation
import Testing
import FaultlineTestSupport

/// Frame-level HTTP/2 conformance through the real binary (h2probe.py as the client, a
/// recording HTTP/1 origin): SETTINGS, flow control both ways, the concurrent-stream limit,
/// RST_STREAM and GOAWAY from the client. Each test asserts what the client saw and what
/// reached the origin.
// One test at a time: its Python clients, floods and megabyte transfers would otherwise all
// load the machine at once, beside the timing-sensitive tests of the rest of the suite.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct HTTP2ConformanceTests {
    @Test func settingsCarryTheConfiguredValuesAndTheClientsSettingsAreAcknowledged() async throws {
        let defaults = try await HTTP2ConformanceStack.start()
        let plain = try await defaults.probe([["do": "request", "label": "a", "path": "/bytes/3"],
                                              ["do": "wait", "for": "settings_ack"]],
                                             ["settings": ["initial_window_size": 1000]])
        #expect(plain.peerSettings["MAX_CONCURRENT_STREAMS"] == 100 && plain.peerSettings["INITIAL_WINDOW_SIZE"] == 262_144,
                "\(plain.peerSettings)")
        #expect(plain.peerSettings["MAX_FRAME_SIZE"] == 16384 && plain.peerSettings["MAX_HEADER_LIST_SIZE"] == 65536,
                "\(plain.peerSettings)")
        #expect(plain.settingsAcked >= 1 && plain.stream(labelled: "a")?.status == 200)

        let tuned = try await HTTP2ConformanceStack.start(http2: """
            {"max_concurrent_streams": 7, "initial_window_size": 30000, "max_frame_size": 32768, "max_header_list_size": 8192}
            """)
        // The probe sends three SETTINGS frames (its preface's, one with `settings`, one later
        // on the connection): each is acknowledged.
        let report = try await tuned.probe([["do": "request", "label": "a", "path": "/bytes/3"],
                                            ["do": "settings", "values": ["max_frame_size": 20000]],
                                            ["do": "wait", "for": "settings_ack", "count": 2]],
                                           ["settings": ["initial_window_size": 1000]])
        #expect(report.peerSettings == ["MAX_CONCURRENT_STREAMS": 7, "INITIAL_WINDOW_SIZE": 30000, "MAX_FRAME_SIZE": 32768,
                                        "MAX_HEADER_LIST_SIZE": 8192, "ENABLE_PUSH": 0], "\(report.peerSettings)")
        #expect(report.settingsAcked == 3 && report.timeouts.isEmpty && report.goaway == nil, "\(report)")
        #expect(report.stream(labelled: "a")?.body == "xxx")
        #expect(tuned.origin.requests(to: "/bytes/3").count == 1 && defaults.origin.requests(to: "/bytes/3").count == 1)
    }

    @Test func aResponseLargerThanTheClientWindowStallsUntilWindowUpdateThenCompletesIntact() async throws {
        let stack = try await HTTP2ConformanceStack.start()
        let report = try await stack.probe([
            ["do": "request", "label": "big", "path": "/bytes/50000", "read": false],
            ["do": "wait", "for": "data", "stream": "big"],
            ["do": "sleep", "seconds": 0.8],
            ["do": "window_update", "stream": "big", "increment": 49000],
            ["do": "wait", "for": "end", "stream": "big"],
        ], ["settings": ["initial_window_size": 1000]])
        let big = try #require(report.stream(labelled: "big"))
        #expect(big.status == 200 && big.ended && big.bodyBytes == 50000, "\(report)")
        #expect(big.bodySha256 == SHA256.hex(Array(repeating: UInt8(ascii: "x"), count: 50000)))
        // The first 1000 bytes came at once; the rest only after the update, 0.8 s after them.
        let first = big.firstDataMs ?? 0, end = big.endMs ?? 0
        #expect(end - first >= 700, "first DATA at \(first) ms, end at \(end) ms")
        #expect(stack.origin.requests(to: "/bytes/50000").count == 1)
    }

    @Test func aRequestBodyIsAcceptedOnlyAsTheUpstreamTakesIt() async throws {
        let stack = try await HTTP2ConformanceStack.start(http2: #"{"initial_window_size": 16384}"#)
        let size = 8 << 20
        let result = try await stack.python(Self.slowUpload, [String(stack.proxy.port), String(size), "/slowread?ms=1500"])
        let values = try JSONObject.parse(Array(result.output.utf8))
        // The proxy never lets the client send more than the configured window ahead.
        #expect(values["max_window"] as? Int == 16384, "\(result.output) \(result.error)")
        #expect(values["status"] as? String == "200", "\(result.output) \(result.error)")
        // The origin read nothing for 1.5 s: the upload could not finish before that.
        #expect((values["sent_seconds"] as? Double ?? 0) >= 1.2, "\(result.output)")
        let seen = stack.origin.requests(to: "/slowread")
        #expect(seen.count == 1 && seen.first?["body_bytes"] as? Int == size, "\(seen)")
        #expect(seen.first?["body_sha256"] as? String == SHA256.hex(Array(repeating: UInt8(ascii: "u"), count: size)))
    }

    @Test func aSlowStreamBesideFastOnesCompletesIntactOnceItReads() async throws {
        let stack = try await HTTP2ConformanceStack.start()
        let fast = (1...5).map { ["do": "request", "label": "fast\($0)", "path": "/bytes/\(1000 + $0)"] as [String: Any] }
        let report = try await stack.probe(
            [["do": "request", "label": "slow", "path": "/bytes/1000000", "read": false], ["do": "wait", "for": "data", "stream": "slow"]]
                + fast + (1...5).map { ["do": "wait", "for": "end", "stream": "fast\($0)"] }
                + [["do": "sleep", "seconds": 0.3], ["do": "window_update", "stream": "slow", "increment": 1_000_000],
                   ["do": "wait", "for": "end", "stream": "slow", "timeout": 15]])
        let slow = try #require(report.stream(labelled: "slow"))
        for index in 1...5 {
            let stream = report.stream(labelled: "fast\(index)")
            #expect(stream?.status == 200 && stream?.bodyBytes == 1000 + index && stream?.ended == true, "fast\(index)")
            // Every fast stream ended while the slow one was still held.
            #expect((stream?.endMs ?? .infinity) < (slow.endMs ?? 0), "fast\(index)")
        }
        #expect(slow.ended && slow.bodyBytes == 1_000_000 && slow.reset == nil, "\(report)")
        #expect(slow.bodySha256 == SHA256.hex(Array(repeating: UInt8(ascii: "x"), count: 1_000_000)))
        #expect(stack.origin.requests(to: "/bytes/").count == 6 && report.goaway == nil)
    }

    @Test func aThirdStreamBeyondTheLimitIsRefusedAndLaterStreamsWork() async throws {
        let stack = try await HTTP2ConformanceStack.start(http2: #"{"max_concurrent_streams": 2}"#)
        // The three HEADERS leave before the client has read (and acknowledged) the proxy's
        // SETTINGS, the race every client has: RFC 9113 §5.1.2, a stream error.
        let report = try await stack.probe([
            ["do": "request", "label": "a", "path": "/bytes/100000", "read": false],
            ["do": "request", "label": "b", "path": "/bytes/100001", "read": false],
            ["do": "request", "label": "c", "path": "/third"],
            ["do": "wait", "for": "reset", "stream": "c"],
            ["do": "rst", "stream": "a"],
            ["do": "request", "label": "d", "path": "/fourth"],
            ["do": "wait", "for": "end", "stream": "d"],
            ["do": "rst", "stream": "b"],
        ], ["settings": ["initial_window_size": 100], "final_wait": false])
        let refused = try #require(report.stream(labelled: "c"))
        #expect(refused.reset?.name == "REFUSED_STREAM" && refused.status == nil, "\(report)")
        #expect(report.stream(labelled: "d")?.status == 200 && report.stream(labelled: "d")?.body == "ok", "\(report)")
        #expect(report.goaway == nil && !report.closed)
        #expect(stack.origin.requests(to: "/third").isEmpty && stack.origin.requests(to: "/fourth").count == 1)
    }

    @Test func aStreamBeyondTheAcknowledgedLimitEndsTheConnection() async throws {
        let stack = try await HTTP2ConformanceStack.start(http2: #"{"max_concurrent_streams": 2}"#)
        // After the SETTINGS were acknowledged nghttp2 treats a third stream as a connection
        // error (GOAWAY PROTOCOL_ERROR naming the last stream it processed), stricter than the
        // stream error RFC 9113 §5.1.2 asks for. The h2 package would not send it: raw HEADERS.
        let third = HPACKLiterals.headersFrame(streamID: 5, endStream: true,
                                               [(":method", "GET"), (":scheme", "http"), (":authority", "x"), (":path", "/third")])
        let report = try await stack.probe([
            ["do": "request", "label": "a", "path": "/bytes/100000", "read": false],
            ["do": "request", "label": "b", "path": "/bytes/100001", "read": false],
            ["do": "wait", "for": "data", "stream": "b"],
            ["do": "raw", "hex": third],
            ["do": "wait", "for": "goaway"],
        ], ["settings": ["initial_window_size": 100], "final_wait": false])
        #expect(report.goaway?.name == "PROTOCOL_ERROR" && report.goaway?.lastStreamId == 3, "\(report)")
        #expect(stack.origin.requests(to: "/third").isEmpty)
        #expect(try await stack.freshConnectionServes())
    }

    /// Uploads argv[2] bytes of `u` to argv[3] as fast as the proxy's windows allow; prints JSON:
    /// the largest stream send window the proxy ever granted, the seconds until the last byte
    /// was sent, and the response status.
    static let slowUpload = #"""
    import json, socket, sys, time
    import h2.connection, h2.config, h2.events

    sock = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10)
    size, path = int(sys.argv[2]), sys.argv[3]
    conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
    conn.initiate_connection()
    sock.sendall(conn.data_to_send())
    start, max_window, sent, sent_at, status, done = time.time(), 0, 0, None, None, False
    sid = 1
    conn.send_headers(sid, [(":method", "POST"), (":scheme", "http"), (":authority", "127.0.0.1"), (":path", path),
                            ("content-length", str(size))])
    sock.sendall(conn.data_to_send())

    def read():
        global status, done
        for event in conn.receive_data(sock.recv(1 << 20)):
            if isinstance(event, h2.events.ResponseReceived):
                status = dict(event.headers)[b":status"].decode()
            elif isinstance(event, h2.events.DataReceived):
                conn.acknowledge_received_data(event.flow_controlled_length, sid)
            elif isinstance(event, (h2.events.StreamEnded, h2.events.StreamReset)):
                done = True
        sock.sendall(conn.data_to_send())

    read()  # the proxy's SETTINGS
    while time.time() - start < 30 and not done:
        window = conn.local_flow_control_window(sid) if sent < size else 0
        max_window = max(max_window, window)
        if sent < size and window > 0:
            chunk = min(window, conn.max_outbound_frame_size, size - sent)
            sent += chunk
            conn.send_data(sid, b"u" * chunk, end_stream=sent == size)
            sock.sendall(conn.data_to_send())
            if sent == size:
                sent_at = time.time() - start
            continue
        read()
    print(json.dumps({"max_window": max_window, "sent_seconds": sent_at, "status": status}))
    """#
}
