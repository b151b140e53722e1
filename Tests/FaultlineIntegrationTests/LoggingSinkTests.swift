import Foundation
import Testing
import FaultlineTestSupport

/// The log sink under stress and misuse: a stdout nobody reads, unwritable paths at start
/// and on reload, rotation by SIGHUP, and oversized headers and bodies.
@Suite(.timeLimit(.minutes(1)))
struct LoggingSinkTests {
    /// A config in front of the upstream at `originPort` with `log` and, optionally, `har` and `limits`.
    private static func config(originPort: Int, log: [String: Any], har: [String: Any]? = nil,
                               limits: [String: Any]? = nil) -> [String: Any] {
        LoggingConfig.root(upstreams: ["o": LoggingConfig.httpUpstream(port: originPort)],
                           routes: [LoggingConfig.route("all", upstream: "o")], log: log, har: har, limits: limits)
    }

    private static func send(_ proxy: TLSProxy, id: String, path: String = "/json") async throws {
        let result = try await Curl.run(["-o", "/dev/null", "-w", "%{http_code}", "-H", "X-Request-ID: \(id)", proxy.url(path)])
        #expect(result.text == "200", "\(id): \(result.exitCode) \(result.stderr)")
    }

    // MARK: A stdout nobody reads

    @Test func aStdoutNobodyReadsDropsRecordsAndNeverSlowsTraffic() async throws {
        let origin = try await OriginProcess.demo()
        defer { origin.kill() }
        let directory = try TemporaryDirectory()
        // Records of about 5 KB (a 4,000-byte header is logged whole): once the 64 KiB pipe is
        // full, the sink's 16 MiB queue fills after roughly 3,400 of them.
        let config = Self.config(originPort: origin.port,
                                 log: ["format": "json", "destination": "stdout", "headers": true],
                                 har: ["enabled": false])
        let path = try directory.write("faultline.json", TLSProxyConfig.json(config))
        let proxy = try await StalledStdoutProcess.start(config: path)
        defer { proxy.kill() }

        let filler = String(repeating: "f", count: 4000)
        let request = "GET /64 HTTP/1.1\r\nHost: a\r\nX-Filler: \(filler)\r\n\r\n"
        let connections = 4, batches = 25, batch = 50 // 5,000 requests
        let port = proxy.port
        let started = ContinuousClock.now
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<connections {
                group.addTask {
                    try await Blocking.run { () -> Int in
                        let client = try RawClient(port: port, readTimeout: .seconds(2))
                        defer { client.close() }
                        var ok = 0
                        for _ in 0..<batches {
                            try client.send(String(repeating: request, count: batch))
                            let read = client.readResponses(batch, timeout: .seconds(10))
                            ok += read.responses.filter { $0.status == 200 && $0.body.count == 64 }.count
                            if read.responses.count < batch { return ok }
                        }
                        return ok
                    }
                }
            }
            return try await group.reduce(0, +)
        }
        let elapsed = ContinuousClock.now - started
        #expect(counts == connections * batches * batch, "\(counts) of \(connections * batches * batch) requests answered")
        #expect(elapsed < .seconds(60), "5,000 requests took \(elapsed) behind a blocked log pipe")

        let status = try await AdminRequests.json(port: proxy.adminPort, "GET", "/log")
        let log = try #require(status["log"] as? [String: Any])
        let dropped = log["dropped"] as? Int ?? 0
        #expect(dropped > 0, "records must be dropped (and counted) when stdout is not read: \(status)")
        #expect(dropped < counts, "\(status)")
        #expect(log["enabled"] as? Bool == true && log["destination"] as? String == "stdout", "\(status)")

        // Still responsive: a fresh client is answered at once.
        let probe = try await Curl.run(["-o", "/dev/null", "-w", "%{http_code} %{time_total}", "http://127.0.0.1:\(port)/64"], maxTime: 5)
        let parts = probe.text.split(separator: " ")
        #expect(parts.first == "200", "\(probe.text) \(probe.stderr)")
        #expect((Double(parts.last ?? "") ?? 99) < 2, "a request after the flood took \(probe.text)")
        #expect(proxy.isRunning)
    }

    // MARK: Unwritable paths

    @Test(arguments: ["/proc/nonexistent/faultline.log", "blocker/faultline.log"])
    func anUnwritableLogPathIsRefusedAtStart(path: String) async throws {
        let directory = try TemporaryDirectory()
        try directory.write("blocker", "a regular file, so blocker/… cannot be created")
        let config = Self.config(originPort: try FreePort.closed(), log: ["destination": "file", "path": path])
        let configPath = try directory.write("faultline.json", TLSProxyConfig.json(config))
        let result = try await FaultlineProcess.command(["run", "--config", configPath])
        // README and `faultline --help`: exit 3 is "invalid configuration", 2 a usage error.
        #expect(result.status == 3, "exit \(result.status): \(result.output)")
        #expect(result.output.contains("log.path"), "the error names the field: \(result.output)")
        #expect(result.output.contains(path), "the error names the path: \(result.output)")
        #expect(!result.output.contains("listening on"), "nothing is served: \(result.output)")
    }

    @Test func aReloadToAnUnwritablePathIsRefusedAndTheOldFileKeepsReceiving() async throws {
        let origin = try await OriginProcess.demo()
        defer { origin.kill() }
        let log: [String: Any] = ["format": "json", "destination": "file", "path": "a.log"]
        let proxy = try await TLSProxy.start(Self.config(originPort: origin.port, log: log))
        defer { proxy.kill() }
        let oldPath = proxy.directory.path("a.log")
        try await Self.send(proxy, id: "before-reload")
        _ = try await LogFile.waitForExchanges(["before-reload"], in: oldPath)

        let unwritable = "/proc/nonexistent/b.log"
        var bad = log
        bad["path"] = unwritable
        let skip = proxy.output.lines.count
        try proxy.directory.write("faultline.json", TLSProxyConfig.json(Self.config(originPort: origin.port, log: bad)))
        proxy.process.signal(SIGHUP)
        try await proxy.output.waitForLine(containing: "reload refused", after: skip)
        let named = try await proxy.output.waitForLine("the refused path", after: skip) { $0.contains(unwritable) }
        #expect(named.text.contains("log.path"), "\(named.text)")

        try await Self.send(proxy, id: "after-reload")
        _ = try await LogFile.waitForExchanges(["after-reload"], in: oldPath)
        let status = try await proxy.logStatus()
        #expect((status["log"] as? [String: Any])?["path"] as? String == oldPath, "\(status)")
        #expect(!FileManager.default.fileExists(atPath: unwritable))
    }

    @Test func sighupAfterRenamingTheLogFileWritesToANewFileAtThePath() async throws {
        let origin = try await OriginProcess.demo()
        defer { origin.kill() }
        let proxy = try await TLSProxy.start(Self.config(originPort: origin.port,
                                                        log: ["format": "json", "destination": "file", "path": "logs/traffic.log"]))
        defer { proxy.kill() }
        let path = proxy.directory.path("logs/traffic.log")
        let rotated = path + ".1"
        try await Self.send(proxy, id: "before-rotation")
        _ = try await LogFile.waitForExchanges(["before-rotation"], in: path)

        try FileManager.default.moveItem(atPath: path, toPath: rotated)
        proxy.process.signal(SIGHUP)
        try await Deadline.poll("a new file at \(path) after SIGHUP", timeout: .seconds(10)) {
            FileManager.default.fileExists(atPath: path) ? () : nil
        }
        try await Self.send(proxy, id: "after-rotation")
        let records = try await LogFile.waitForExchanges(["after-rotation"], in: path)
        #expect(records.exchange("before-rotation") == nil, "the new file starts empty")
        let old = LogFile.records(rotated)
        #expect(old.exchange("before-rotation") != nil && old.exchange("after-rotation") == nil,
                "the rotated file keeps the old records only: \(old.compactMap(\.requestID))")
        let mode = (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
        #expect(mode & 0o027 == 0, "the log file is not world-readable nor group-writable: \(String(mode, radix: 8))")
    }

    // MARK: Oversized input

    /// `…[truncated N bytes]` at the end of `text`: the kept text and N.
    private static func truncation(_ text: String) -> (kept: Int, omitted: Int)? {
        guard let range = text.range(of: "…[truncated ", options: .backwards), text.hasSuffix(" bytes]") else { return nil }
        let number = text[range.upperBound...].dropLast(" bytes]".count)
        guard let omitted = Int(number) else { return nil }
        return (text[..<range.lowerBound].utf8.count, omitted)
    }

    /// A 100 KB header value and a 1 MB JSON body: the record stays small, each cut value
    /// ends in the marker, and the marker counts what was really left out (with and without
    /// the HAR capture, which captures bodies up to 64 KiB for itself).
    @Test(arguments: [true, false])
    func oversizedHeaderAndBodyGiveABoundedRecordWithTheTruncationMarker(harEnabled: Bool) async throws {
        var secrets: [String: String] = [:]
        for name in CanaryOrigin.responseSecretNames { secrets[name] = "value-\(name)" }
        let origin = try await CanaryOrigin.start(secrets: secrets)
        defer { origin.kill() }
        let config = Self.config(originPort: origin.port,
                                 log: ["format": "json", "destination": "file", "path": "traffic.log", "headers": true, "bodies": true],
                                 har: ["enabled": harEnabled], limits: ["max_header_bytes": 262_144])
        let proxy = try await TLSProxy.start(config)
        defer { proxy.kill() }

        let header = String(repeating: "h", count: 100 * 1024)
        let item = "\"abcdefghijklmnopqrstuvwxyz012345\""
        let body = "{\"items\":[" + Array(repeating: item, count: 30_000).joined(separator: ",") + "]}"
        #expect(body.utf8.count > 1_000_000)
        let port = proxy.port
        let head = "POST /upload HTTP/1.1\r\nHost: a\r\nX-Request-ID: rid-big\r\nX-Big: \(header)\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
        let response = try await Blocking.run { () -> ParsedResponse? in
            let client = try RawClient(port: port)
            defer { client.close() }
            try client.send(head + body)
            return client.readResponses(1, timeout: .seconds(10)).responses.first
        }
        #expect(response?.status == 200, "\(String(describing: response?.status))")
        let received = try await Deadline.poll("the origin's request line", timeout: .seconds(10)) { origin.requests.first }
        #expect(received["body_bytes"] as? Int == body.utf8.count, "the origin got the whole body")

        let path = proxy.directory.path("traffic.log")
        let records = try await LogFile.waitForExchanges(["rid-big"], in: path)
        let line = try #require(LogFile.lines(path).first { $0.contains("\"rid-big\"") && $0.contains("\"exchange\"") })
        #expect(line.utf8.count < 65_536, "the record is \(line.utf8.count) bytes")
        let record = try #require(records.exchange("rid-big"))
        #expect(record["http.request.body.size"] as? Int == body.utf8.count, "\(record["http.request.body.size"] ?? "")")

        let value = try #require(record.requestHeader("x-big")?.first)
        let headerCut = try #require(Self.truncation(value), "no truncation marker on the header: …\(value.suffix(80))")
        #expect(headerCut.kept <= 4096 && headerCut.kept + headerCut.omitted == header.utf8.count,
                "header: kept \(headerCut.kept) + omitted \(headerCut.omitted) ≠ \(header.utf8.count)")

        let logged = try #require(record["faultline.request.body"] as? String)
        let bodyCut = try #require(Self.truncation(logged), "no truncation marker on the body: …\(logged.suffix(80))")
        #expect(bodyCut.kept <= 8192, "body kept \(bodyCut.kept) bytes; log.body_max_bytes is 8192")
        let bodyMessage = "har.enabled \(harEnabled): the body marker says \(bodyCut.omitted) bytes were left out after "
            + "\(bodyCut.kept), but the body had \(body.utf8.count) bytes (\(body.utf8.count - bodyCut.kept) left out)"
        #expect(bodyCut.kept + bodyCut.omitted == body.utf8.count, Comment(rawValue: bodyMessage))
        #expect(logged.hasPrefix("{\"items\":[\"abcdefghijklmnopqrstuvwxyz012345\","))
    }
}
