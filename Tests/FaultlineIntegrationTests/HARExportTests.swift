import Foundation
import Testing
import FaultlineTestSupport

/// The HAR capture: a valid HAR 1.2 document from `GET /har` and `faultline har export`,
/// bounded by `har.max_entries`, emptied by `DELETE /har`.
@Suite(.timeLimit(.minutes(1)))
struct HARExportTests {
    /// The scripted origin behind a proxy with the admin API, a 503 status fault on
    /// `/down`, logging off (the capture does not depend on the log) and `har`.
    private static func start(har: [String: Any] = [:]) async throws -> (OriginProcess, TLSProxy) {
        let origin = try await OriginProcess.scripted()
        let config = LoggingConfig.root(
            upstreams: ["o": LoggingConfig.httpUpstream(port: origin.port)],
            routes: [
                LoggingConfig.route("down", prefix: "/down", upstream: "o",
                                    faults: [["status": ["code": 503, "body": "{\"error\":\"maintenance\"}",
                                                         "content_type": "application/json", "headers": ["Retry-After": "5"]]]]),
                LoggingConfig.route("all", upstream: "o"),
            ],
            log: ["off": true], har: har)
        return (origin, try await TLSProxy.start(config))
    }

    /// Waits until the capture holds `count` entries (entries are added as exchanges end).
    private static func waitForEntries(_ proxy: TLSProxy, _ count: Int, evicted: Int? = 0) async throws {
        var last: [String: Any] = [:]
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            last = (try await proxy.logStatus()["har"] as? [String: Any]) ?? [:]
            if last["entries"] as? Int == count && (evicted == nil || last["evicted"] as? Int == evicted) { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestFailure("GET /log never showed \(count) HAR entries and \(evicted.map(String.init) ?? "any") evicted: \(last)")
    }

    @Test func exportIsAValidHAR12Document() async throws {
        let (origin, proxy) = try await Self.start()
        defer { proxy.kill(); origin.kill() }
        let get = try await Curl.run(["-o", "/dev/null", "-H", "X-Request-ID: har-get", "-H", "Cookie: a=1; b=2",
                                      proxy.url("/headers?q=shoes&page=2")])
        let post = try await Curl.run(["-o", "/dev/null", "-H", "X-Request-ID: har-post", "-H", "Content-Type: application/json",
                                       "--data-binary", "{\"user\":\"alice\"}", proxy.url("/headers")])
        let fault = try await Curl.run(["-o", "/dev/null", "-H", "X-Request-ID: har-fault", proxy.url("/down/x")])
        #expect([get, post, fault].allSatisfy { $0.exitCode == 0 })
        try await Self.waitForEntries(proxy, 3)

        let (document, _) = try await proxy.har()
        let problems = HARValidator.problems(document)
        #expect(problems.isEmpty, "\(problems)")
        let log = try #require(document["log"] as? [String: Any])
        #expect((log["creator"] as? [String: Any])?["name"] as? String == "Faultline")
        let entries = HARValidator.entries(document)
        #expect(entries.map { $0["_requestId"] as? String } == ["har-get", "har-post", "har-fault"], "in the order they ended")
        let starts = entries.compactMap { HARValidator.date($0["startedDateTime"] as? String ?? "") }
        #expect(starts.count == 3 && starts == starts.sorted(), "startedDateTime in order: \(entries.map { $0["startedDateTime"] ?? "" })")

        let first = try #require(entries.first)
        let request = try #require(first["request"] as? [String: Any])
        #expect(request["method"] as? String == "GET")
        #expect((request["url"] as? String)?.hasSuffix("127.0.0.1:\(proxy.port)/headers?q=shoes&page=2") == true, "\(request["url"] ?? "")")
        #expect(request["httpVersion"] as? String == "HTTP/1.1")
        let query = ((request["queryString"] as? [[String: Any]]) ?? []).map { "\($0["name"] ?? "")=\($0["value"] ?? "")" }
        #expect(query == ["q=shoes", "page=2"], "\(query)")
        let cookies = ((request["cookies"] as? [[String: Any]]) ?? []).map { $0["name"] as? String ?? "" }
        #expect(cookies == ["a", "b"], "\(cookies)")
        let response = try #require(first["response"] as? [String: Any])
        #expect(response["status"] as? Int == 200 && response["statusText"] as? String == "OK", "\(response)")
        let content = try #require(response["content"] as? [String: Any])
        #expect((content["mimeType"] as? String)?.hasPrefix("application/json") == true, "\(content)")
        let size = content["size"] as? Int ?? -1
        #expect(size > 0 && response["bodySize"] as? Int == size, "\(response)")
        #expect((content["text"] as? String)?.utf8.count == size, "the small JSON body is captured whole")

        let posted = try #require(entries.dropFirst().first?["request"] as? [String: Any])
        let postData = posted["postData"] as? [String: Any]
        #expect(postData?["mimeType"] as? String == "application/json" && postData?["text"] as? String == "{\"user\":\"alice\"}",
                "\(postData ?? [:])")
        #expect(posted["bodySize"] as? Int == 16)

        let faulted = try #require(entries.last?["response"] as? [String: Any])
        #expect(faulted["status"] as? Int == 503 && faulted["statusText"] as? String == "Service Unavailable", "\(faulted)")
        let headers = ((faulted["headers"] as? [[String: Any]]) ?? []).map { "\($0["name"] ?? ""): \($0["value"] ?? "")".lowercased() }
        #expect(headers.contains("retry-after: 5"), "\(headers)")
        #expect((faulted["content"] as? [String: Any])?["text"] as? String == "{\"error\":\"maintenance\"}", "\(faulted)")
        #expect(entries.last?["_faults"] as? [String] == ["down/status"])
    }

    @Test func captureIsBoundedAndDeleteEmptiesIt() async throws {
        let (origin, proxy) = try await Self.start(har: ["max_entries": 5])
        defer { proxy.kill(); origin.kill() }
        // One keep-alive connection, one request at a time, so they end in order.
        let port = proxy.port
        let statuses = try await Blocking.run { () -> [Int] in
            let client = try RawClient(port: port)
            defer { client.close() }
            var statuses: [Int] = []
            for index in 0..<20 {
                try client.send("GET /r\(index) HTTP/1.1\r\nHost: a\r\n\r\n")
                statuses.append(client.readResponses(1).responses.first?.status ?? 0)
            }
            return statuses
        }
        #expect(statuses == Array(repeating: 200, count: 20))
        try await Self.waitForEntries(proxy, 5, evicted: 15)
        let (document, _) = try await proxy.har()
        #expect(HARValidator.problems(document).isEmpty, "\(HARValidator.problems(document))")
        let urls = HARValidator.entries(document).map { ($0["request"] as? [String: Any])?["url"] as? String ?? "" }
        #expect(urls.map { $0.split(separator: "/").last.map(String.init) ?? "" } == (15..<20).map { "r\($0)" }, "\(urls)")

        let adminPort = try proxy.requireAdminPort()
        let cleared = try await AdminRequests.json(port: adminPort, "DELETE", "/har")
        #expect(cleared["cleared"] as? Int == 5, "\(cleared)")
        let (empty, _) = try await proxy.har()
        #expect(HARValidator.entries(empty).isEmpty && HARValidator.problems(empty).isEmpty, "\(empty)")
        #expect((try await proxy.logStatus()["har"] as? [String: Any])?["entries"] as? Int == 0)
        // Capturing goes on after a clear.
        #expect(try await Curl.run(["-o", "/dev/null", proxy.url("/after")]).exitCode == 0)
        try await Self.waitForEntries(proxy, 1, evicted: nil)
    }

    @Test func harExportAndClearCommands() async throws {
        let (origin, proxy) = try await Self.start()
        defer { proxy.kill(); origin.kill() }
        for index in 0..<3 {
            #expect(try await Curl.run(["-o", "/dev/null", proxy.url("/cli\(index)?token=t\(index)")]).exitCode == 0)
        }
        try await Self.waitForEntries(proxy, 3)
        let adminPort = try proxy.requireAdminPort()
        let path = proxy.directory.path("session.har")
        let exported = try await HARExportCLI.export(adminPort: adminPort, output: path)
        #expect(exported.status == 0, "\(exported.output)")
        let text = LogFile.text(path)
        let document = try JSONObject.parse(Array(text.utf8))
        #expect(HARValidator.problems(document).isEmpty, "\(HARValidator.problems(document))")
        let urls = HARValidator.entries(document).map { ($0["request"] as? [String: Any])?["url"] as? String ?? "" }
        #expect(urls.count == 3 && urls.allSatisfy { $0.contains("token=[REDACTED]") }, "\(urls)")
        let mode = (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
        #expect(mode & 0o077 == 0, "the HAR file is readable by its owner only: \(String(mode, radix: 8))")

        #expect(exported.output.contains("wrote \(path)"), "\(exported.output)")
        // Without --output the document goes to stdout.
        let printed = try await FaultlineProcess.command(["har", "export", "--admin", "http://127.0.0.1:\(adminPort)"])
        #expect(printed.status == 0)
        let printedDocument = try JSONObject.parse(Array(printed.output.utf8))
        #expect(HARValidator.entries(printedDocument).count == 3, "\(printed.output.prefix(300))")

        let cleared = try await FaultlineProcess.command(["har", "clear", "--admin", "http://127.0.0.1:\(adminPort)"])
        #expect(cleared.status == 0, "\(cleared.output)")
        #expect(HARValidator.entries(try await proxy.har().object).isEmpty)
    }
}
