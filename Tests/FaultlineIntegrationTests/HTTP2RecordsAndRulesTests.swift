import Foundation
import Testing
import FaultlineTestSupport

/// HTTP/2 through the binary as the operator sees it: the JSON log line and the HAR entry of
/// each stream, the `GET /stats` counters after a known sequence, and rules with `rst_stream`
/// and `goaway` added and switched at runtime.
@Suite(.timeLimit(.minutes(2)))
struct HTTP2RecordsAndRulesTests {
    static let routes = [
        #"{"name": "reset", "match": {"path": "/status/201"}, "upstream": "o", "faults": [{"reset": {}}]}"#,
        #"{"name": "refuse", "match": {"path": "/status/202"}, "upstream": "o", "faults": [{"rst_stream": {}}]}"#,
        #"{"name": "calm", "match": {"path": "/status/203"}, "upstream": "o", "faults": [{"goaway": {"mode": "immediate", "error_code": "ENHANCE_YOUR_CALM"}}]}"#,
        #"{"name": "hang", "match": {"path": "/status/204"}, "upstream": "o", "faults": [{"hang": {}}]}"#,
        #"{"name": "drain", "match": {"path": "/status/205"}, "upstream": "o", "faults": [{"goaway": {}}]}"#,
    ]

    /// Opens one stream over TLS (ALPN h2), then resets it with CANCEL.
    static let resetByClient = #"""
    import socket, ssl, sys, time
    import h2.config, h2.connection
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    context.set_alpn_protocols(["h2"])
    sock = context.wrap_socket(socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10), server_hostname="localhost")
    conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
    conn.initiate_connection()
    conn.send_headers(1, [(":method", "GET"), (":path", sys.argv[2]), (":scheme", "https"), (":authority", "localhost")], end_stream=True)
    sock.sendall(conn.data_to_send())
    time.sleep(0.3)
    conn.reset_stream(1, error_code=8)
    sock.sendall(conn.data_to_send())
    time.sleep(0.3)
    sock.close()
    print("reset sent")
    """#

    @Test func logLinesAndHAREntriesCarryTheProtocolTheStreamAndItsErrorCode() async throws {
        let stack = try await H2FaultStack.start(routes: Self.routes)
        defer { stack.stop() }
        // Two streams on one nghttp connection (13 and 15), then an immediate GOAWAY for curl.
        let nghttp = try await H2FaultClients.nghttp2(stack, ["/json?client=ok", "/status/201?client=reset"])
        #expect(nghttp.status == 0, "\(nghttp.output)")
        let curl = try await H2FaultClients.curl(stack.url("/status/203?client=calm"), root: stack.rootPath, maxTime: 5)
        #expect(curl.exitCode == 18, "\(curl)")

        let expected: [(client: String, code: String?, frame: String?)] = [
            ("ok", nil, nil), ("reset", "INTERNAL_ERROR", "RST_STREAM"), ("calm", "ENHANCE_YOUR_CALM", "GOAWAY"),
        ]
        let records = try await Deadline.poll("three exchange records", timeout: .seconds(10)) { () -> [[String: Any]]? in
            let found = expected.compactMap { stack.exchanges(of: $0.client).first }
            return found.count == expected.count ? found : nil
        }
        let entries = try await stack.harEntries()
        for (row, record) in zip(expected, records) {
            #expect(record["network.protocol.version"] as? String == "2", "\(row.client): \(record)")
            let streamID = record["http2.stream_id"] as? Int
            #expect(streamID != nil, "\(row.client): \(record)")
            #expect(record["http2.error_code"] as? String == row.code, "\(row.client): \(record)")
            #expect(record["http2.error_frame"] as? String == row.frame, "\(row.client): \(record)")
            let entry = entries.first { (($0["request"] as? [String: Any])?["url"] as? String ?? "").contains("client=\(row.client)") }
            let request = entry?["request"] as? [String: Any]
            let response = entry?["response"] as? [String: Any]
            #expect(request?["httpVersion"] as? String == "HTTP/2.0", "\(row.client): \(entry ?? [:])")
            #expect(response?["httpVersion"] as? String == "HTTP/2.0", "\(row.client): \(entry ?? [:])")
            #expect(entry?["_streamId"] as? Int == streamID, "\(row.client): \(entry ?? [:])")
            #expect(entry?["_http2ErrorCode"] as? String == row.code, "\(row.client): \(entry ?? [:])")
        }
        #expect(Set(records.prefix(2).compactMap { $0["http2.stream_id"] as? Int }) == [13, 15], "\(records)")
        #expect(records.last?["http2.stream_id"] as? Int == 1, "\(records)")
    }

    @Test func statsCountConnectionsStreamsResetsAndGoAwaysAfterAKnownSequence() async throws {
        let stack = try await H2FaultStack.start(routes: Self.routes)
        defer { stack.stop() }
        // One connection, three streams: one answered, one reset (reset), one refused (rst_stream).
        let nghttp = try await H2FaultClients.nghttp2(stack, ["/json", "/status/201", "/status/202"])
        #expect(nghttp.output.contains("error_code=INTERNAL_ERROR") && nghttp.output.contains("error_code=REFUSED_STREAM"),
                "\(nghttp.output)")
        // One connection, one stream the client resets.
        let python = try await Blocking.run {
            try Command.launch([TestPaths.python3, "-c", Self.resetByClient, String(stack.proxy.port), "/status/204?client=canceller"],
                               timeout: .seconds(20))
        }
        #expect(python.output.contains("reset sent"), "\(python.output) \(python.error)")
        // One connection each: an immediate GOAWAY, then a graceful one.
        let calm = try await H2FaultClients.curl(stack.url("/status/203"), root: stack.rootPath, maxTime: 5)
        #expect(calm.exitCode == 18, "\(calm)")
        let drain = try await H2FaultClients.curl(stack.url("/status/205"), root: stack.rootPath, maxTime: 5)
        #expect(drain.exitCode == 0 && drain.httpCode == 205, "\(drain)")

        let expected = ["connections_accepted": 4, "streams_opened": 6, "streams_reset_by_faultline": 2,
                        "streams_reset_by_client": 1, "goaways_sent": 2]
        // The counters are bumped on the event loop; give the last close a moment to land.
        var counters = try await stack.http2Counters()
        for _ in 0..<50 where counters != expected {
            try await Task.sleep(for: .milliseconds(100))
            counters = try await stack.http2Counters()
        }
        #expect(counters == expected, "\(counters)")
        let canceller = try #require(stack.exchanges(of: "canceller").first)
        #expect(canceller["http2.error_code"] as? String == "CANCEL" && canceller["http2.error_sender"] as? String == "client",
                "\(canceller)")
    }

    @Test func rstStreamAndGoAwayRulesAddedAtRuntimeActOnH2Streams() async throws {
        let stack = try await H2FaultStack.start(routes: [])
        defer { stack.stop() }
        let paths = ["/status/200", "/json"]
        var result = try await H2FaultClients.nghttp2(stack, paths)
        #expect(result.output.components(separatedBy: ":status: 200").count == 3, "\(result.output)")

        // `faultline rules add`: the rule's stream is refused, the other stream on the connection is answered.
        let rule = #"{"name": "refuse-x", "match": {"path_prefix": "/status/"}, "upstream": "o", "faults": [{"name": "refuse", "rst_stream": {}}]}"#
        let added = try await FaultlineProcess.command(["rules", "add", rule, "--admin", "http://127.0.0.1:\(stack.adminPort)"])
        #expect(added.status == 0, "\(added.output)")
        result = try await H2FaultClients.nghttp2(stack, paths)
        #expect(result.output.contains("stream_id=13>\n          (error_code=REFUSED_STREAM(0x07))"), "\(result.output)")
        #expect(result.output.contains("recv (stream_id=15) :status: 200"), "\(result.output)")

        // Switched off and on at runtime through the admin API, the rule and its fault.
        #expect(try await stack.admin("POST", "/rules/refuse-x/disable") == 200)
        result = try await H2FaultClients.nghttp2(stack, paths)
        #expect(result.output.contains("recv (stream_id=13) :status: 200") && !result.output.contains("RST_STREAM"), "\(result.output)")
        #expect(try await stack.admin("POST", "/rules/refuse-x/enable") == 200)
        #expect(try await stack.admin("POST", "/rules/refuse-x/faults/refuse/disable") == 200)
        result = try await H2FaultClients.nghttp2(stack, paths)
        #expect(!result.output.contains("REFUSED_STREAM"), "\(result.output)")
        #expect(try await stack.admin("POST", "/rules/refuse-x/faults/refuse/enable") == 200)
        result = try await H2FaultClients.nghttp2(stack, paths)
        #expect(result.output.contains("error_code=REFUSED_STREAM"), "\(result.output)")

        // Replaced by an immediate GOAWAY: the whole connection ends with its code.
        let goAway = #"{"match": {"path_prefix": "/status/"}, "upstream": "o", "faults": [{"goaway": {"mode": "immediate", "error_code": "ENHANCE_YOUR_CALM"}}]}"#
        #expect(try await stack.admin("PUT", "/rules/refuse-x", body: goAway) == 200)
        result = try await H2FaultClients.nghttp2(stack, ["/status/200"])
        #expect(H2FaultClients.summarize(result.output) == "recv GOAWAY ENHANCE_YOUR_CALM last_stream_id=13", "\(result.output)")
        #expect(try await stack.admin("DELETE", "/rules/refuse-x") == 204)
        result = try await H2FaultClients.nghttp2(stack, ["/status/200"])
        #expect(result.output.contains("recv (stream_id=13) :status: ") && !result.output.contains("ENHANCE_YOUR_CALM"), "\(result.output)")
    }
}
