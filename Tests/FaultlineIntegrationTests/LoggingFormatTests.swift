import Foundation
import Testing
import FaultlineTestSupport

/// The shape of the traffic log: JSON Lines with the documented fields, request ids
/// end to end, the readable text form, and the defaults.
@Suite(.timeLimit(.minutes(1)))
struct LoggingFormatTests {
    /// The scripted origin (it echoes the headers it received at `/headers`) behind a proxy
    /// logging to `traffic.log` in the config directory; `teapot` answers 418 itself.
    private static func start(log: [String: Any], extraRoutes: [[String: Any]] = []) async throws -> (OriginProcess, TLSProxy) {
        let origin = try await OriginProcess.scripted()
        var log = log
        log["destination"] = "file"
        log["path"] = "traffic.log"
        let config = LoggingConfig.root(
            upstreams: ["o": LoggingConfig.httpUpstream(port: origin.port)],
            routes: extraRoutes + [
                LoggingConfig.route("teapot", prefix: "/teapot", upstream: "o", faults: [["status": 418]]),
                LoggingConfig.route("all", upstream: "o"),
            ],
            log: log)
        return (origin, try await TLSProxy.start(config))
    }

    /// `curl -i`: the response head and body, parsed.
    private static func get(_ url: String, _ arguments: [String] = []) async throws -> ParsedResponse {
        let result = try await Curl.run(["-i"] + arguments + [url])
        guard result.exitCode == 0, let response = HTTPResponseParser.parse(result.stdout, closed: true).first else {
            throw TestFailure("curl \(url): exit \(result.exitCode) \(result.stderr) \(result.text.prefix(300))")
        }
        return response
    }

    /// The X-Request-ID the scripted origin says it received (its `/headers` echo).
    private static func idAtOrigin(_ response: ParsedResponse) throws -> [String] {
        let echo = try JSONObject.parse(response.body)
        let headers = (echo["headers"] as? [[String]]) ?? []
        return headers.filter { $0.first?.lowercased() == "x-request-id" }.map { $0.count > 1 ? $0[1] : "" }
    }

    private static func isGeneratedID(_ id: String) -> Bool {
        id.count == 16 && id.allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }

    @Test func everyLineIsAJSONObjectAndExchangesCarryTheDocumentedFields() async throws {
        let (origin, proxy) = try await Self.start(log: ["format": "json"])
        defer { proxy.kill(); origin.kill() }
        let provided = "client-supplied.id:42"
        let withID = try await Self.get(proxy.url("/headers?x=1"), ["-H", "X-Request-ID: \(provided)"])
        #expect(withID.status == 200)
        #expect(try Self.idAtOrigin(withID) == [provided], "the origin must receive the client's id unchanged")
        let withoutID = try await Self.get(proxy.url("/headers"))
        let generated = try #require(try Self.idAtOrigin(withoutID).first, "no X-Request-ID reached the origin")
        #expect(Self.isGeneratedID(generated), "generated id \(generated)")
        let invalid = try await Self.get(proxy.url("/headers"), ["-H", "X-Request-ID: not valid <id>"])
        let replaced = try Self.idAtOrigin(invalid)
        #expect(replaced.count == 1 && Self.isGeneratedID(replaced[0]), "an invalid id is replaced by a generated one: \(replaced)")
        let posted = try await Self.get(proxy.url("/headers"), ["--data-binary", "{\"a\":1}", "-H", "Content-Type: application/json"])
        #expect(posted.status == 200)
        let teapot = try await Self.get(proxy.url("/teapot"))
        #expect(teapot.status == 418)
        let teapotID = try #require(teapot.header("X-Request-ID"), "Faultline's own response carries X-Request-ID: \(teapot.headers)")
        #expect(Self.isGeneratedID(teapotID))

        let path = proxy.directory.path("traffic.log")
        let postedID = try #require(try Self.idAtOrigin(posted).first)
        let ids = [provided, generated, replaced.first ?? "", postedID, teapotID]
        let records = try await LogFile.waitForExchanges(ids, in: path)
        let lines = LogFile.lines(path)
        #expect(lines.count == LogFile.parsedLines(path).compactMap { $0 }.count,
                "every line is a JSON object:\n\(lines.filter { LogFile.parse($0) == nil }.prefix(3).joined(separator: "\n"))")
        let exchanges = records.filter { $0.kind == "exchange" }
        #expect(exchanges.count == 5, "one record per exchange: \(exchanges.map(\.jsonText))")
        for record in exchanges {
            let text = record.jsonText
            #expect(HARValidator.date(record["time"] as? String ?? "") != nil, "time: \(text)")
            #expect(record["client.address"] as? String == "127.0.0.1", "\(text)")
            #expect(record["http.request.method"] is String && record["url.path"] is String, "\(text)")
            #expect(record["http.response.status_code"] as? Int != nil, "\(text)")
            let total = HARValidator.number(record["faultline.duration.total"])
            #expect(total != nil && total! >= 0, "faultline.duration.total: \(text)")
            #expect(record["faultline.route"] is String && record["faultline.upstream"] as? String == "o", "\(text)")
            #expect(!record.keys.contains { $0.hasPrefix("http.request.header.") || $0.hasPrefix("http.response.header.") },
                    "headers are logged only with log.headers: \(text)")
            #expect(record["faultline.request.body"] == nil && record["faultline.response.body"] == nil,
                    "bodies are logged only with log.bodies: \(text)")
        }
        let first = try #require(records.exchange(provided))
        #expect(first["url.path"] as? String == "/headers" && first["url.query"] as? String == "x=1", "\(first.jsonText)")
        #expect(first["http.request.method"] as? String == "GET" && first["http.response.status_code"] as? Int == 200)
        #expect(first["faultline.route"] as? String == "all", "\(first.jsonText)")
        #expect(records.exchange(generated)?["url.path"] as? String == "/headers")
        #expect(records.exchange(postedID)?["http.request.method"] as? String == "POST")
        #expect(records.exchange(postedID)?["http.request.body.size"] as? Int == 7)
        let fault = try #require(records.exchange(teapotID))
        #expect(fault["http.response.status_code"] as? Int == 418 && fault["faultline.route"] as? String == "teapot", "\(fault.jsonText)")
        #expect(fault["faultline.fault"] as? [String] == ["teapot/status"], "\(fault.jsonText)")
        #expect(records.contains { $0.kind == "fault" && $0.requestID == teapotID }, "a fault record for the fired fault")
    }

    @Test func textFormatIsOneReadableLinePerExchange() async throws {
        let (origin, proxy) = try await Self.start(log: ["format": "text", "fault_events": false])
        defer { proxy.kill(); origin.kill() }
        #expect(try await Self.get(proxy.url("/headers?q=shoes&token=secret-value")).status == 200)
        #expect(try await Self.get(proxy.url("/headers"), ["--data-binary", "x"]).status == 200)
        #expect(try await Self.get(proxy.url("/teapot")).status == 418)
        let path = proxy.directory.path("traffic.log")
        let lines = try await Deadline.poll("three text lines in the log", timeout: .seconds(10)) { () -> [String]? in
            let lines = LogFile.lines(path)
            return lines.count >= 3 ? lines : nil
        }
        #expect(lines.count == 3, "one line per exchange:\n\(lines.joined(separator: "\n"))")
        #expect(lines.allSatisfy { LogFile.parse($0) == nil && !$0.contains("\u{1B}[") }, "plain text, no colour in a file")
        let expected = [("GET /headers?q=shoes&token=[REDACTED]", "→ 200"), ("POST /headers", "→ 200"), ("GET /teapot", "→ 418")]
        for (request, status) in expected {
            let line = lines.first { $0.contains(" \(request) ") }
            #expect(line?.contains(status) == true && line?.contains("route=") == true && line?.contains(" id=") == true,
                    "\(request) \(status) in:\n\(lines.joined(separator: "\n"))")
        }
        #expect(!lines.joined().contains("secret-value"))
        #expect(HARValidator.date(String(lines.first?.split(separator: " ").first ?? "")) != nil, "lines start with the time")
    }

    @Test func withoutALogSectionJSONLinesGoToStdout() async throws {
        let stack = try await ProxyStack.demo()
        defer { stack.stop() }
        let result = try await Curl.run(["-o", "/dev/null", "-w", "%{http_code}", stack.url("/json?token=abc")])
        #expect(result.text == "200")
        let record = try await Deadline.poll("a record on stdout", timeout: .seconds(10)) {
            LogFile.records(in: stack.proxy.output).first { $0.kind == "exchange" }
        }
        #expect(record["url.path"] as? String == "/json" && record["url.query"] as? String == "token=[REDACTED]", "\(record.jsonText)")
    }

    /// A response cut by a fault after N body bytes failed for the client (curl exit 56 or
    /// 18) just like a reset before the response, whose record says `error.type: fault`;
    /// the cut one must say so too, not look like a complete 200.
    @Test(arguments: [("reset", #"{"reset": {"after_bytes": 10}}"#), ("close", #"{"close": {"after_bytes": 10}}"#),
                      ("truncate", #"{"truncate": {"keep_bytes": 10}}"#)])
    func aResponseCutByAFaultIsLoggedAsAFailure(kind: String, fault: String) async throws {
        let faults = try #require(LogFile.parse("{\"f\": [\(fault)]}")?["f"] as? [[String: Any]])
        let (origin, proxy) = try await Self.start(log: ["format": "json"],
                                                   extraRoutes: [LoggingConfig.route("cut", prefix: "/cut", upstream: "o", faults: faults)])
        defer { proxy.kill(); origin.kill() }
        let result = try await Curl.run(["-o", "/dev/null", "-H", "X-Request-ID: rid-cut", proxy.url("/cut/headers")])
        #expect(result.exitCode != 0, "the client sees the cut: \(kind)")
        let records = try await LogFile.waitForExchanges(["rid-cut"], in: proxy.directory.path("traffic.log"))
        let record = try #require(records.exchange("rid-cut"))
        #expect(record["faultline.fault"] as? [String] == ["cut/\(kind)"], "\(record.jsonText)")
        #expect(record["error.type"] as? String == "fault", "\(kind) after 10 bytes: the record has no error: \(record.jsonText)")
    }
}
