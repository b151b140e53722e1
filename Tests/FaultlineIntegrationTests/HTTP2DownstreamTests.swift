import Foundation
import Testing
import FaultlineTestSupport

/// HTTP/2 between clients and the proxy, through the real binary: curl over TLS (ALPN h2) and
/// with prior knowledge (h2c), nghttp and h2load multiplexing, a Python h2 client holding one
/// stream's window closed, uploads, and graceful shutdown.
@Suite(.timeLimit(.minutes(2)))
struct HTTP2DownstreamTests {
    /// `%{http_version} %{http_code}` as curl reports them.
    private static let versionAndStatus = ["-o", "/dev/null", "-w", "%{http_version} %{http_code}"]

    @Test func curlNegotiatesH2OverTLSByDefaultAndHTTP1StillWorks() async throws {
        let stack = try await HTTP2Stack.start()
        let h2 = try await Curl.run(["--http2"] + stack.trust + Self.versionAndStatus + [stack.tls("/json")])
        #expect(h2.exitCode == 0 && h2.text == "2 200", "\(h2.text) \(h2.stderr)")
        let h1 = try await Curl.run(["--http1.1"] + stack.trust + Self.versionAndStatus + [stack.tls("/json")])
        #expect(h1.exitCode == 0 && h1.text == "1.1 200", "\(h1.text) \(h1.stderr)")
        let body = try await Curl.run(["--http2"] + stack.trust + [stack.tls("/echo")])
        #expect(body.text.contains("\"path\": \"/echo\"") || body.text.contains("/echo"), "\(body.text)")
    }

    @Test func curlWithPriorKnowledgeOnTheH2CListener() async throws {
        let stack = try await HTTP2Stack.start()
        let h2 = try await Curl.run(["--http2-prior-knowledge"] + Self.versionAndStatus + [stack.h2c("/json")])
        #expect(h2.exitCode == 0 && h2.text == "2 200", "\(h2.text) \(h2.stderr)")
        // The same listener still speaks HTTP/1.1 to a client that does.
        let h1 = try await Curl.run(["--http1.1"] + Self.versionAndStatus + [stack.h2c("/json")])
        #expect(h1.exitCode == 0 && h1.text == "1.1 200", "\(h1.text) \(h1.stderr)")
        // An Upgrade: h2c offer is answered in HTTP/1.1 and never reaches the origin.
        let upgrade = try await Curl.run(["--http2", "-w", "\n%{http_version}", stack.h2c("/headers")])
        #expect(upgrade.exitCode == 0 && upgrade.text.hasSuffix("\n1.1"), "\(upgrade.text)")
        #expect(!upgrade.text.lowercased().contains("http2-settings") && !upgrade.text.contains("h2c"), "\(upgrade.text)")
    }

    @Test func anHTTP1UpstreamsHopFieldsStayOnItsHopAndViaJoinsItsValues() async throws {
        let stack = try await HTTP2Stack.start(origin: try await OriginProcess.scripted())
        let clients = [(["--http2-prior-knowledge"], stack.h2c("/hop-fields")), (["--http2"] + stack.trust, stack.tls("/hop-fields"))]
        for (options, url) in clients {
            let result = try await Curl.run(options + ["-sS", "-D", "-", "-w", "\n%{http_version}", url])
            let lines = result.text.components(separatedBy: "\r\n")
            #expect(result.exitCode == 0 && result.text.hasSuffix("\r\n\r\nhello\n2"), "\(result.text.suffix(200)) \(result.stderr)")
            #expect(lines.contains("via: 1.0 cache-a, 1.1 cache-b, 1.1 faultline"), "\(lines.filter { $0.count < 200 })")
            #expect(lines.contains("x-long: " + String(repeating: "v", count: 3000)), "\(lines.map(\.count))")
            #expect(lines.contains("content-length: 5") && lines.contains("content-type: text/plain"), "\(lines.filter { $0.count < 200 })")
            // Connection, the X-Hop field it names and Keep-Alive describe the upstream's connection only.
            let names = lines.dropFirst().compactMap { $0.split(separator: ":", maxSplits: 1).first.map(String.init) }
            #expect(!names.contains("x-hop") && !names.contains("connection") && !names.contains("keep-alive"), "\(names)")
        }
    }

    @Test func nghttpMultiplexesSeveralStreams() async throws {
        let stack = try await HTTP2Stack.start()
        // The slow stream waits long enough that even a sanitized proxy has sent every other one.
        let paths = ["/delay/2000", "/json", "/64", "/bytes/100000", "/stream/3"]
        let result = try await stack.tool(["nghttp", "-nv"] + paths.map { stack.h2c($0) })
        #expect(result.status == 0, "\(result.output) \(result.error)")
        #expect(result.output.components(separatedBy: ":status: 200").count - 1 == paths.count, "\(result.output)")
        // The slow stream (the first one, stream 13) ends last: the others did not wait for it.
        let ends = result.output.components(separatedBy: "\n").filter { $0.contains("recv DATA") || $0.contains("recv HEADERS") }
        #expect(ends.last?.contains("stream_id=13") == true, "\(ends)")
    }

    @Test func h2loadCompletesHundredsOfMultiplexedRequests() async throws {
        let stack = try await HTTP2Stack.start()
        let plain = try await stack.tool(["h2load", "-n", "400", "-c", "2", "-m", "100", stack.h2c("/64")])
        #expect(plain.output.contains("400 succeeded, 0 failed, 0 errored"), "\(plain.output)")
        #expect(plain.output.contains("400 2xx"), "\(plain.output)")
        let tls = try await stack.tool(["h2load", "-n", "200", "-c", "2", "-m", "50", stack.tls("/64")])
        #expect(tls.output.contains("200 succeeded, 0 failed, 0 errored"), "\(tls.output)")
        #expect(tls.output.contains("Application protocol: h2"), "\(tls.output)")
    }

    /// One HTTP/2 client with 100 streams open keeps its HTTP/1 upstream connections: the
    /// pool holds more than one client's concurrency, so the connections a burst of responses
    /// releases are not closed for the next burst to open again (with a cap of 64 idle
    /// connections, this run opened well over a hundred).
    @Test func aHundredStreamsReuseTheirUpstreamConnections() async throws {
        let origin = try await OriginProcess.demo()
        defer { origin.kill() }
        var listener = TLSProxyConfig.plainListener
        listener["h2c"] = true
        var config = TLSProxyConfig.root(listeners: [listener], upstreams: ["o": ["url": "http://127.0.0.1:\(origin.port)"]],
                                         workers: 1)
        config["log"] = ["format": "json", "destination": "file", "path": "traffic.log"]
        let proxy = try await TLSProxy.start(config)
        defer { proxy.kill() }
        let requests = 3000
        let result = try await Blocking.run {
            try Command.launch(["h2load", "-n", "\(requests)", "-c", "1", "-m", "100", proxy.url("/64")], timeout: .seconds(60))
        }
        #expect(result.output.contains("\(requests) succeeded, 0 failed, 0 errored"), "\(result.output) \(result.error)")
        let path = proxy.directory.path("traffic.log")
        var records: [[String: Any]] = []
        for _ in 0..<200 {
            records = LogFile.records(path)
            if records.count >= requests { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(records.count == requests)
        // A record carries a connect duration when its exchange opened a connection.
        let opened = records.filter { $0["faultline.duration.connect"] != nil }.count
        #expect(opened > 0 && opened <= 120, "\(opened) upstream connections opened for \(requests) requests")
    }

    @Test func aStreamWhoseClientDoesNotReadStallsOnlyItself() async throws {
        let stack = try await HTTP2Stack.start()
        let result = try await stack.python(HTTP2ClientScripts.slowStreamBesideFastOnes, [String(stack.proxy.ports[0])])
        #expect(result.status == 0, "\(result.output) \(result.error)")
        let values = Dictionary(result.output.split(separator: "\n").compactMap { line -> (String, String)? in
            let parts = line.split(separator: " ")
            return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
        }, uniquingKeysWith: { $1 })
        #expect(values["stalled"] == "65535", "\(result.output)")
        #expect(values["fast_ok"] == "True", "\(result.output) \(result.error)")
        #expect(Double(values["fast_seconds"] ?? "") ?? 99 < 3, "\(result.output)")
        #expect(values["slow_total"] == "3000000" && values["slow_done"] == "True", "\(result.output)")
    }

    @Test func requestBodiesUploadIntact() async throws {
        let stack = try await HTTP2Stack.start()
        var generator = SplitMix64(seed: 11)
        let body = (0..<3_000_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        let path = try stack.directory.write("upload.bin", Data(body))
        for (url, extra) in [(stack.h2c("/echo?raw=1"), ["--http2-prior-knowledge"]), (stack.tls("/echo?raw=1"), ["--http2"] + stack.trust)] {
            let result = try await Curl.run(extra + ["--data-binary", "@\(path)", "-H", "Content-Type: application/octet-stream", url],
                                            maxTime: 20)
            #expect(result.exitCode == 0, "\(result.stderr)")
            #expect(result.stdout.count == body.count && result.stdout == body, "\(url): \(result.stdout.count) bytes back")
        }
    }

    @Test func eachStreamHasItsOwnLogRecord() async throws {
        let stack = try await HTTP2Stack.start()
        let result = try await stack.tool(["nghttp", "-n", stack.h2c("/json?a=1"), stack.h2c("/json?a=2"), stack.h2c("/json?a=3")])
        #expect(result.status == 0, "\(result.error)")
        try await Deadline.poll("three exchange records", timeout: .seconds(5)) {
            stack.proxy.output.text.components(separatedBy: "\"kind\":\"exchange\"").count - 1 >= 3 ? () : nil
        }
    }

    @Test func sigtermSendsGoAwayAndLetsTheStreamInFlightFinish() async throws {
        let stack = try await HTTP2Stack.start(drainMs: 8000)
        let result = try await stack.python(HTTP2ClientScripts.signalDuringStream,
                                            [String(stack.proxy.ports[0]), String(stack.proxy.child.pid)])
        let lines = result.output.split(separator: "\n").map(String.init)
        // The notice (last stream id 2^31-1), then the final GOAWAY naming the stream in flight.
        #expect(lines.filter { $0.hasPrefix("goaway 0 ") } == ["goaway 0 2147483647", "goaway 0 1"], "\(result.output) \(result.error)")
        #expect(lines.contains("status 200") && lines.contains("ended True"), "\(result.output) \(result.error)")
        // The connection closed once its stream finished: the drain did not wait for its limit.
        let status = try await stack.proxy.child.waitForExit(timeout: .seconds(10))
        #expect(status == 0, "\(stack.proxy.output.text)")
        #expect(stack.proxy.output.text.contains("drained, exiting"), "\(stack.proxy.output.text)")
    }

    @Test func rapidResetEndsTheConnectionAndTheProxyGoesOn() async throws {
        let stack = try await HTTP2Stack.start()
        let result = try await stack.python(HTTP2ClientScripts.rapidReset, [String(stack.proxy.ports[0])])
        let words = result.output.split(separator: "\n").last?.split(separator: " ") ?? []
        // nghttp2's reset limit (a bucket of 1000 resets, 33 more per second) ends the connection.
        #expect(words.count == 3 && words[0] == "goaway" && words[1] != "None", "\(result.output) \(result.error)")
        if words.count == 3, let last = Int(words[2]) { #expect(last < 5999, "every stream was processed: \(last)") }
        let after = try await Curl.run(["--http2-prior-knowledge"] + Self.versionAndStatus + [stack.h2c("/json")])
        #expect(after.text == "2 200", "\(after.text) \(after.stderr)")
    }

    @Test func aClientThatSendsNoRequestIsClosedAfterTheHeaderTimeout() async throws {
        let stack = try await HTTP2Stack.start()
        // The preface and SETTINGS, then nothing: the client_header timeout (2 s) ends it.
        let script = #"""
        import socket, sys, time
        sock = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=10)
        sock.sendall(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0]))
        start, data = time.time(), b""
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
        goaway = any(data[i + 3] == 7 for i in range(0, max(0, len(data) - 8)) if data[i:i + 3] == bytes([0, 0, 8]))
        print("closed_after", round(time.time() - start, 1), "goaway", goaway)
        """#
        let result = try await stack.python(script, [String(stack.proxy.ports[0])])
        let words = result.output.split(separator: " ")
        #expect(words.count == 4 && words[3].hasPrefix("True"), "\(result.output) \(result.error)")
        if words.count == 4, let seconds = Double(words[1]) { #expect(seconds >= 1.5 && seconds < 6, "\(result.output)") }
    }

    @Test func trailersPassBothWays() async throws {
        let stack = try await HTTP2Stack.start(origin: try await OriginProcess.scripted())
        // Upstream chunked trailers become an HTTP/2 trailer block after the DATA.
        let response = try await stack.tool(["nghttp", "-nv", stack.h2c("/trailers")])
        let lines = response.output.components(separatedBy: "\n")
        let data = lines.firstIndex { $0.contains("recv DATA frame") }
        let trailer = lines.firstIndex { $0.contains("recv (stream_id=13) x-checksum: abc123") }
        #expect(data != nil && trailer != nil && data ?? 0 < trailer ?? 0, "\(response.output)")
        // HTTP/2 request trailers (a body without content-length) reach the origin as chunked trailers.
        let upload = try await stack.python(HTTP2ClientScripts.uploadWithTrailers, [String(stack.proxy.ports[0])])
        let echo = try JSONSerialization.jsonObject(with: Data(upload.output.utf8)) as? [String: Any]
        #expect(echo?["body_bytes"] as? Int == 11, "\(upload.output) \(upload.error)")
        let trailers = echo?["trailers"] as? [[String]] ?? []
        #expect(trailers.contains { $0.first?.lowercased() == "x-checksum" && $0.last == "1" }, "\(upload.output)")
        let headers = echo?["headers"] as? [[String]] ?? []
        #expect(headers.contains { $0.first?.lowercased() == "transfer-encoding" && $0.last == "chunked" }, "\(upload.output)")
        // An interim 103 passes as an informational HEADERS block before the final one.
        let hints = try await stack.tool(["nghttp", "-nv", stack.h2c("/early-hints")])
        let statuses = hints.output.components(separatedBy: "\n").filter { $0.contains("recv (stream_id=13) :status:") }
        #expect(statuses.map { $0.components(separatedBy: ":status: ").last ?? "" } == ["103", "200"], "\(hints.output)")
    }
}
