import Foundation
import Testing
import FaultlineTestSupport

/// The `http2` flood limits through the real binary: rapid reset within and beyond the
/// configured burst, CONTINUATION floods, SETTINGS and PING floods from a client that does
/// not read, an oversized header list. After each, a fresh connection is served.
// One test at a time: its Python clients, floods and megabyte transfers would otherwise all
// load the machine at once, beside the timing-sensitive tests of the rest of the suite.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct HTTP2FloodTests {
    @Test func theConfiguredStreamResetBurstIsHonoured() async throws {
        let stack = try await HTTP2ConformanceStack.start(http2: #"{"max_stream_resets": {"burst": 20, "per_second": 1}}"#)
        let below = try await stack.probe([["do": "rapid_reset", "count": 10, "path": "/reset-below"],
                                           ["do": "request", "label": "after", "path": "/after"]])
        #expect(below.goaway == nil && !below.closed && below.stream(labelled: "after")?.status == 200, "\(below)")
        let above = try await stack.probe([["do": "rapid_reset", "count": 60, "path": "/reset-above"],
                                           ["do": "wait", "for": "goaway"]], ["final_wait": false])
        // nghttp2 ends the connection with INTERNAL_ERROR once the bucket is empty.
        let goaway = try #require(above.goaway, "\(above)")
        #expect(goaway.name == "INTERNAL_ERROR" && goaway.lastStreamId <= 2 * 25, "\(goaway)")
        #expect(stack.origin.requests(to: "/after").count == 1)
        #expect(try await stack.freshConnectionServes())
    }

    /// "MadeYouReset" (CVE-2025-8671): each stream declares one byte and sends two, so nghttp2
    /// resets it itself (PROTOCOL_ERROR); those resets draw on the `max_stream_resets` allowance
    /// like the client's own, and past it the connection ends with GOAWAY ENHANCE_YOUR_CALM.
    /// The streams are held (a small declared length): the origin sees none of them.
    @Test func resetsTheClientProvokesCountAgainstTheResetLimit() async throws {
        let stack = try await HTTP2ConformanceStack.start(http2: #"{"max_stream_resets": {"burst": 10, "per_second": 1}}"#)
        let report = try await stack.probe([["do": "provoke_resets", "count": 200, "path": "/made-you-reset"],
                                            ["do": "wait", "for": "close", "timeout": 10]], ["final_wait": false])
        let goaway = try #require(report.goaway, "\(report.frames) \(report.timeouts)")
        #expect(goaway.name == "ENHANCE_YOUR_CALM" && report.closed, "\(goaway)")
        // Ten tokens, plus those a slow machine regains at one a second while the flood arrives.
        let resets = report.frames["RSTSTREAM"] ?? 0
        #expect(resets >= 10 && resets <= 30, "\(report.frames)")
        #expect(report.frames["GOAWAY"] == 1, "\(report.frames)")
        // Every reset and the GOAWAY the client saw, and no more, are in the counters.
        let counted = try await stack.http2Metrics(expecting: ["streams_reset_by_faultline": resets, "goaways_sent": 1])
        #expect(counted == ["streams_reset_by_faultline": resets, "goaways_sent": 1], "\(counted)")
        #expect(stack.origin.heads(to: "/made-you-reset").isEmpty, "\(stack.origin.heads(to: "/made-you-reset").count) heads")
        #expect(try await stack.freshConnectionServes())
    }

    @Test func continuationFloodsEndTheConnectionAndTheConfiguredLimitHolds() async throws {
        let stack = try await HTTP2ConformanceStack.start(http2: #"{"max_continuations": 20}"#)
        // Ten CONTINUATION frames are within the limit: the request goes through (the frames are
        // raw, so the h2 package does not know the stream: the frame log shows the response).
        let within = try await stack.probeFrames([["do": "continuation_flood", "label": "ten", "count": 10, "end_headers": true,
                                                   "path": "/continued"], ["do": "sleep", "seconds": 0.5]], ["final_wait": false])
        let response = HTTP2ConformanceStack.frames(within, stream: 1)
        #expect(response.contains { $0["name"] as? String == "HEADERS" }, "\(within)")
        #expect(response.contains { ($0["flags"] as? [String])?.contains("END_STREAM") == true } && within["goaway"] is NSNull, "\(within)")
        // Twenty-five are five past it: the connection ends before the block does. (How many of
        // a larger flood the client writes before it sees the close depends on the machine's
        // load, so the count is not what is checked.)
        let flood = try await stack.probe([["do": "continuation_flood", "label": "flood", "count": 25, "path": "/flooded"],
                                           ["do": "wait", "for": "close"]], ["final_wait": false])
        #expect(flood.goaway?.name == "ENHANCE_YOUR_CALM" && flood.closed, "\(flood)")
        #expect(stack.origin.requests(to: "/continued").count == 1 && stack.origin.requests(to: "/flooded").isEmpty)
        #expect(try await stack.freshConnectionServes())
    }

    @Test func aSettingsFrameWithTooManyEntriesEndsTheConnection() async throws {
        let stack = try await HTTP2ConformanceStack.start(http2: #"{"max_settings": 8}"#)
        let report = try await stack.probe([["do": "raw", "hex": HPACKLiterals.settingsFrame(entries: 9)],
                                            ["do": "wait", "for": "goaway"]], ["final_wait": false])
        #expect(report.goaway?.name == "ENHANCE_YOUR_CALM", "\(report)")
        #expect(try await stack.freshConnectionServes())
    }

    @Test(arguments: ["ping", "settings"])
    func aFloodFromAClientThatDoesNotReadIsBounded(_ kind: String) async throws {
        let stack = try await HTTP2ConformanceStack.start()
        _ = try await stack.freshConnectionServes()
        let before = try #require(stack.proxyRSSKiB)
        let result = try await stack.python(Self.unreadFlood, [String(stack.proxy.port), kind, String(stack.proxy.child.pid)])
        let after = try #require(stack.proxyRSSKiB)
        let values = try JSONObject.parse(Array(result.output.utf8))
        let sent = values["sent"] as? Int ?? 0, acks = values["acks"] as? Int ?? 0
        // The connection ended long before every frame was acknowledged: GOAWAY ENHANCE_YOUR_CALM,
        // or, when the client still had not read it once the proxy's 2 s lingering close ran
        // out while the client kept sending, a reset that discards it.
        #expect(values["goaway"] as? Int == 11 || (values["goaway"] is NSNull && values["ended"] as? Bool == true),
                "\(result.output) \(result.error)")
        #expect(sent >= 50000 && acks < sent / 10, "\(result.output)")
        #expect(after - before < 16 * 1024, "RSS grew from \(before) KiB to \(after) KiB")
        #expect(try await stack.freshConnectionServes())
    }

    @Test func anOversizedHeaderListIsRefusedWithoutTouchingOtherStreams() async throws {
        let stack = try await HTTP2ConformanceStack.start(http2: #"{"max_header_list_size": 4096}"#)
        let report = try await stack.probe([
            ["do": "request", "label": "beside", "path": "/slowread?ms=400"],
            ["do": "request", "label": "big", "path": "/big", "extra": [["x-big", String(repeating: "b", count: 5000)]]],
            ["do": "request", "label": "after", "path": "/after"],
        ])
        let big = try #require(report.stream(labelled: "big"))
        #expect(big.status == 431 && big.ended, "\(report)")
        #expect(report.stream(labelled: "beside")?.body == "ok" && report.stream(labelled: "after")?.body == "ok", "\(report)")
        #expect(report.goaway == nil && !report.closed)
        #expect(stack.origin.requests(to: "/big").isEmpty && stack.origin.requests(to: "/after").count == 1)
        #expect(try await stack.freshConnectionServes())
    }

    @Test func oversizedTrailersEndOnlyTheirStreamAndNeverCompleteTheUpstreamRequest() async throws {
        let stack = try await HTTP2ConformanceStack.start(http2: #"{"max_header_list_size": 4096}"#)
        let report = try await stack.probeFrames([
            ["do": "request", "label": "big", "method": "POST", "path": "/big-trailers", "body": "abc",
             "trailers": [["x-big", String(repeating: "b", count: 5000)]]],
            ["do": "wait", "for": "end", "stream": "big"],
            ["do": "request", "label": "after", "path": "/after"],
        ])
        // The body was already on its way upstream: the client gets 431 or a reset, once.
        let frames = HTTP2ConformanceStack.frames(report, stream: 1)
        let endings = frames.filter { $0["name"] as? String == "RSTSTREAM" || ($0["flags"] as? [String])?.contains("END_STREAM") == true }
        #expect(endings.count == 1, "\(frames)")
        #expect(HTTP2ConformanceStack.frames(report, stream: 3).contains { ($0["flags"] as? [String])?.contains("END_STREAM") == true })
        #expect(report["goaway"] is NSNull, "\(report)")
        _ = try await Deadline.poll("the /big-trailers record", timeout: .seconds(5)) {
            stack.records.first { $0["url.path"] as? String == "/big-trailers" }
        }
        #expect(stack.origin.requests(to: "/big-trailers").isEmpty && stack.origin.requests(to: "/after").count == 1)
        let record = stack.records.first { $0["url.path"] as? String == "/big-trailers" } ?? [:]
        #expect(record["error.type"] as? String == "bad_request" && record["http.response.status_code"] as? Int == 431, "\(record)")
    }

    /// A client that writes argv[2] frames (`ping` or `settings`) as fast as it can and reads
    /// nothing until the proxy stops taking them (or 100,000 were sent); waits for the proxy
    /// (pid argv[3]) to take what the kernel holds, then reads what came back. Prints JSON: frames
    /// sent, acknowledgements received, the GOAWAY code (or null), whether the connection ended.
    static let unreadFlood = #"""
    import json, socket, sys, time
    sock = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.sendall(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0]))
    if sys.argv[2] == "ping":
        frame, ack_type = bytes([0, 0, 8, 6, 0, 0, 0, 0, 0]) + bytes(8), 6
    else:
        frame, ack_type = bytes([0, 0, 6, 4, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0xff, 0xff]), 4
    batch, sent = frame * 1000, 0
    sock.settimeout(2)
    start = time.time()
    while sent < 100000 and time.time() - start < 20:
        try:
            sock.sendall(batch)
            sent += 1000
        except OSError:
            break
    def cpu():
        with open("/proc/%s/stat" % sys.argv[3]) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])
    # The proxy has taken the kernel's backlog once its CPU time stops moving.
    last, still, deadline = cpu(), 0, time.time() + 15
    while still < 3 and time.time() < deadline:
        time.sleep(0.2)
        now = cpu()
        still, last = (still + 1 if now == last else 0), now
    data, ended = b"", False
    sock.settimeout(3)
    try:
        while True:
            chunk = sock.recv(1 << 20)
            if not chunk:
                ended = True
                break
            data += chunk
    except socket.timeout:
        pass
    except OSError:
        ended = True
    acks, goaway, i = 0, None, 0
    while i + 9 <= len(data):
        length, kind, flags = int.from_bytes(data[i:i + 3], "big"), data[i + 3], data[i + 4]
        if kind == ack_type and flags & 1:
            acks += 1
        if kind == 7:
            goaway = int.from_bytes(data[i + 13:i + 17], "big")
        i += 9 + length
    print(json.dumps({"sent": sent, "acks": acks, "goaway": goaway, "ended": ended}))
    """#
}
