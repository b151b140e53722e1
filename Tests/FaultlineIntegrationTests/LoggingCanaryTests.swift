import Foundation
import Testing
import FaultlineTestSupport

/// The secrets of one run: every value is `CANARY-<purpose>-<nonce>`, and the nonce appears
/// nowhere else, so finding it (or "CANARY") in any output is a leak.
struct Canaries: Sendable {
    let nonce: String
    private(set) var values: [String: String] = [:]

    init() {
        nonce = String(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(12))
    }

    /// The secret for `purpose`, made on first use.
    mutating func make(_ purpose: String) -> String {
        if let value = values[purpose] { return value }
        let value = "CANARY-\(purpose)-\(nonce)"
        values[purpose] = value
        return value
    }

    subscript(_ purpose: String) -> String {
        guard let value = values[purpose] else { fatalError("no canary for \(purpose)") }
        return value
    }

    /// Adds a derived secret (a base64 credential) that must not leak either.
    mutating func addDerived(_ purpose: String, _ value: String) {
        values[purpose] = value
    }

    /// What of these secrets `text` holds: the purposes of the whole values found, and
    /// the lines holding the nonce or "CANARY" (a partial leak), shortened around it.
    func leaks(in text: String) -> (purposes: [String], lines: [String]) {
        let purposes = values.filter { text.contains($0.value) }.map(\.key).sorted()
        let lines = text.split(separator: "\n").filter { $0.contains(nonce) || $0.contains("CANARY") }.prefix(5).map { line in
            let range = line.range(of: nonce) ?? line.range(of: "CANARY")!
            let start = line.index(range.lowerBound, offsetBy: -200, limitedBy: line.startIndex) ?? line.startIndex
            let end = line.index(range.upperBound, offsetBy: 100, limitedBy: line.endIndex) ?? line.endIndex
            return "…" + String(line[start..<end]) + "…"
        }
        return (purposes, lines)
    }
}

/// One canary run: an origin that records what it receives and answers with secrets of its
/// own, an https origin whose chain fails the pins, a closed port, and Faultline in front
/// with headers and bodies logged to `destination` ("file" or "stdout").
final class CanaryRun: @unchecked Sendable {
    static let defaultHeaders = [
        "Authorization", "Proxy-Authorization", "X-Api-Key", "Api-Key", "X-Auth-Token", "X-Access-Token",
        "X-CSRF-Token", "X-XSRF-Token", "X-Session-Token", "X-Amz-Security-Token", "X-Goog-Api-Key",
    ]
    /// Headers redacted because their names contain token, secret, password or session.
    static let substringHeaders = ["X-My-Secret", "X-Refresh-Token-Hint", "X-User-Password", "X-Session-Id"]
    /// Added by `log.redact.headers`; no default rule covers it.
    static let customHeader = "X-Custom-Credential"
    static let defaultQuery = [
        "access_token", "id_token", "refresh_token", "token", "code", "client_secret", "api_key", "key",
        "password", "sig", "signature", "X-Amz-Signature", "X-Amz-Credential", "X-Amz-Security-Token",
        "AWSAccessKeyId", "X-Goog-Signature", "X-Goog-Credential",
    ]
    /// Spellings the docs promise to match too: case, `-`/`_` ignored, percent-encoded names.
    static let variantQuery = ["accessToken", "Refresh_Token", "%74oken"]

    let destination: String
    private(set) var canaries: Canaries
    let origin: CanaryOrigin
    let tlsOrigin: TLSOriginProcess
    let proxy: TLSProxy
    /// Request ids of every exchange sent, in order.
    private(set) var ids: [String] = []
    /// Secrets that must have reached the origin (the exchanges that were forwarded).
    private(set) var forwarded: [String] = []

    var logPath: String { proxy.directory.path("traffic.log") }

    private init(destination: String, canaries: Canaries, origin: CanaryOrigin, tlsOrigin: TLSOriginProcess, proxy: TLSProxy) {
        self.destination = destination
        self.canaries = canaries
        self.origin = origin
        self.tlsOrigin = tlsOrigin
        self.proxy = proxy
    }

    static func start(destination: String) async throws -> CanaryRun {
        var canaries = Canaries()
        var responseSecrets: [String: String] = [:]
        for name in CanaryOrigin.responseSecretNames { responseSecrets[name] = canaries.make("resp-\(name)") }
        let origin = try await CanaryOrigin.start(secrets: responseSecrets)
        let chain = try await TLSChainFactory.make()
        // The rotated chain: its pins are not in the live set, so enforce mode refuses it.
        let tlsOrigin = try await TLSOriginProcess.python(chain: chain.path("rotated-chain.pem"), key: chain.path("rotated.key"))
        let closed = try FreePort.closed()
        var log: [String: Any] = [
            "format": "json", "destination": destination, "headers": true, "bodies": true,
            "redact": ["headers": [customHeader]],
        ]
        if destination == "file" { log["path"] = "traffic.log" }
        let config = LoggingConfig.root(
            upstreams: [
                "o": LoggingConfig.httpUpstream(port: origin.port),
                "o-slow": LoggingConfig.httpUpstream(port: origin.port, responseMs: 300),
                "down": LoggingConfig.httpUpstream(port: closed),
                "pinned": TLSProxyConfig.upstream(port: tlsOrigin.port, caFile: chain.path("root.pem"),
                                                  pins: ["sha256": [chain.pin("leaf"), chain.pin("backup")], "mode": "enforce"]),
            ],
            routes: [
                LoggingConfig.route("down", prefix: "/down/", upstream: "down"),
                LoggingConfig.route("pinned", prefix: "/pinned/", upstream: "pinned"),
                LoggingConfig.route("status-fault", prefix: "/status-fault", upstream: "o",
                                    faults: [["status": ["code": 503, "body": "down for maintenance", "content_type": "text/plain"]]]),
                LoggingConfig.route("reset-early", prefix: "/reset-early", upstream: "o", faults: [["reset": [String: Any]()]]),
                LoggingConfig.route("reset-late", prefix: "/reset-late", upstream: "o", faults: [["reset": ["after_bytes": 10]]]),
                LoggingConfig.route("slow", prefix: "/slow/", upstream: "o-slow"),
                LoggingConfig.route("all", upstream: "o"),
            ],
            log: log)
        let proxy = try await TLSProxy.start(config)
        return CanaryRun(destination: destination, canaries: canaries, origin: origin, tlsOrigin: tlsOrigin, proxy: proxy)
    }

    func stop() {
        proxy.kill()
        origin.kill()
        tlsOrigin.kill()
    }

    // MARK: Sending

    /// curl with `headers` and an optional body: its exit code, the status, and the response
    /// head and body as received (`-i`).
    @discardableResult
    private func curl(_ path: String, id: String, headers: [String] = [], body: String? = nil,
                      contentType: String? = nil) async throws -> (exit: Int32, status: Int, stderr: String, response: String) {
        let marker = "\n@@canary-status@@"
        var arguments = ["-i", "-w", "\(marker)%{http_code}", "-H", "X-Request-ID: \(id)"]
        for header in headers { arguments += ["-H", header] }
        if let body {
            arguments += ["--data-binary", body]
            if let contentType { arguments += ["-H", "Content-Type: \(contentType)"] }
        }
        let result = try await Curl.run(arguments + [proxy.url(path)])
        ids.append(id)
        let parts = result.text.components(separatedBy: marker)
        return (result.exitCode, Int(parts.last ?? "") ?? 0, result.stderr, parts.dropLast().joined(separator: marker))
    }

    /// Raw bytes on a new connection; the response (if any) and its X-Request-ID.
    private func raw(_ request: String) async throws -> ParsedResponse? {
        let port = proxy.port
        let response = try await Blocking.run { () -> ParsedResponse? in
            let client = try RawClient(port: port)
            defer { client.close() }
            try client.send(request)
            return client.readResponses(1, timeout: .seconds(5)).responses.first
        }
        if let id = response?.header("X-Request-ID") { ids.append(id) }
        return response
    }

    /// Sends every request of the run, checking what the client got.
    func sendEverything() async throws {
        try await sendForwarded()
        try await sendFailing()
    }

    /// Exchanges that reach the origin: every sensitive header, cookie, query parameter and body kind.
    private func sendForwarded() async throws {
        // Headers, cookies, Referer and the query.
        var headers: [String] = []
        for name in Self.defaultHeaders + Self.substringHeaders + [Self.customHeader] {
            let secret = canaries.make("h-\(name.lowercased())")
            switch name {
            case "Authorization":
                headers.append("\(name): Bearer \(secret)")
                forwarded.append(secret)
            case "Proxy-Authorization":
                let basic = Data("alice:\(secret)".utf8).base64EncodedString()
                canaries.addDerived("h-proxy-authorization-base64", basic)
                headers.append("\(name): Basic \(basic)")
                forwarded.append(basic)
            default:
                headers.append("\(name): \(secret)")
                forwarded.append(secret)
            }
        }
        let sid = canaries.make("cookie-sid"), prefs = canaries.make("cookie-prefs"), quoted = canaries.make("cookie-quoted")
        let referer = canaries.make("referer-token"), refererUser = canaries.make("referer-userinfo")
        headers += ["Cookie: sid=\(sid); prefs=\(prefs); quoted=\"\(quoted)\"", "X-Trace: visible-neighbour",
                    "Referer: http://bob:\(refererUser)@app.example/prev?token=\(referer)&page=referer-visible"]
        forwarded += [sid, prefs, quoted, referer, refererUser]
        var query = ["q=shoes"]
        for name in Self.defaultQuery + Self.variantQuery {
            let secret = canaries.make("q-\(name.replacingOccurrences(of: "%", with: "pct"))")
            query.append("\(name)=\(secret)")
            forwarded.append(secret)
        }
        query.append("page=2")
        let main = try await curl("/api/search?" + query.joined(separator: "&"), id: "rid-main", headers: headers)
        #expect(main.exit == 0 && main.status == 200, "main request: \(main)")
        // The origin's secrets reached the client through the proxy.
        for name in ["set_cookie_session", "set_cookie_theme", "auth_token", "location_code", "body_token", "body_refresh"] {
            #expect(main.response.contains(canaries["resp-\(name)"]), "the client never received \(name): \(main.response)")
        }

        // A JSON body, a form body and a plain-text body.
        let json = """
            {"user":"alice-visible","password":"\(canaries.make("json-password"))","token":"\(canaries.make("json-token"))",\
            "nested":{"client_secret":"\(canaries.make("json-client-secret"))"},\
            "sessions":[{"access_token":"\(canaries.make("json-access-token"))"}],"apiKey":"\(canaries.make("json-apikey"))",\
            "pass\\u0077ord":"\(canaries.make("json-escaped-name"))"}
            """
        forwarded += ["json-password", "json-token", "json-client-secret", "json-access-token", "json-apikey", "json-escaped-name"]
            .map { canaries[$0] }
        let login = try await curl("/api/login", id: "rid-login", body: json, contentType: "application/json")
        #expect(login.exit == 0 && login.status == 200, "JSON body: \(login)")
        let form = "user=bob-visible&password=\(canaries.make("form-password"))&access_token=\(canaries.make("form-access-token"))"
            + "&client_secret=\(canaries.make("form-client-secret"))&pass%77ord=\(canaries.make("form-encoded-name"))"
        forwarded += ["form-password", "form-access-token", "form-client-secret", "form-encoded-name"].map { canaries[$0] }
        let posted = try await curl("/api/form", id: "rid-form", body: form, contentType: "application/x-www-form-urlencoded")
        #expect(posted.exit == 0 && posted.status == 200, "form body: \(posted)")
        let note = "note: visible-note\npassword=\(canaries.make("text-password"))\nAuthorization: Bearer \(canaries.make("text-bearer"))\n"
        forwarded += [canaries["text-password"], canaries["text-bearer"]]
        let noted = try await curl("/api/note", id: "rid-note", body: note, contentType: "text/plain")
        #expect(noted.exit == 0 && noted.status == 200, "text body: \(noted)")
        // Secret values straddling the cuts: the log line's (8 KiB) and the HAR capture's (64 KiB).
        let logCut = canaries.make("json-straddle-log"), harCut = canaries.make("json-straddle-har")
        let head = "{\"pad\":\"" + String(repeating: "p", count: 8192 - 6 - 19) + "\",\"token\":\"" + logCut + "\",\"pad2\":\""
        let tail = "\",\"password\":\""
        let big = head + String(repeating: "p", count: 65536 - 6 - head.utf8.count - tail.utf8.count) + tail + harCut + "\"}"
        forwarded += [logCut, harCut]
        let straddled = try await curl("/api/big", id: "rid-big", body: big, contentType: "application/json")
        #expect(straddled.exit == 0 && straddled.status == 200, "large JSON body: \(straddled)")
        // The origin answers /text with secrets in a text body.
        let text = try await curl("/text", id: "rid-text")
        #expect(text.exit == 0 && text.status == 200, "text response: \(text)")
        #expect(text.response.contains(canaries["resp-text_token"]) && text.response.contains(canaries["resp-text_bearer"]),
                "the client never received the text body's secrets: \(text.response)")

        // URL userinfo in an absolute-form target (the origin gets the origin-form path).
        let userinfo = canaries.make("userinfo")
        let code = canaries.make("userinfo-query-code")
        forwarded.append(code)
        let absolute = try await raw("GET http://alice:\(userinfo)@127.0.0.1:\(proxy.port)/api/userinfo?code=\(code) HTTP/1.1\r\n"
                                     + "Host: 127.0.0.1:\(proxy.port)\r\nX-Request-ID: rid-userinfo\r\nConnection: close\r\n\r\n")
        #expect(absolute?.status == 200, "absolute-form with userinfo: \(String(describing: absolute?.status))")
        if absolute?.header("X-Request-ID") == nil { ids.append("rid-userinfo") }

        // A URL fragment with a sensitive parameter.
        let fragment = try await raw("GET /api/fragment?q=frag-visible#access_token=\(canaries.make("fragment-token")) HTTP/1.1\r\n"
                                     + "Host: a\r\nX-Request-ID: rid-fragment\r\nConnection: close\r\n\r\n")
        if fragment?.status == 200 {
            if fragment?.header("X-Request-ID") == nil { ids.append("rid-fragment") }
        } else {
            #expect(fragment?.status == 400, "a target with a fragment: \(String(describing: fragment?.status))")
        }

        // The origin answers too late: 504, after it received the request.
        let slowQuery = canaries.make("slow-query"), slowSession = canaries.make("slow-session")
        forwarded += [slowQuery, slowSession]
        let slow = try await curl("/slow/x?id_token=\(slowQuery)", id: "rid-slow", headers: ["X-Session-Token: \(slowSession)"])
        #expect(slow.exit == 0 && slow.status == 504, "upstream timeout: \(slow)")

        // A body fault after the origin answered: the origin saw the request.
        let late = canaries.make("reset-late-sig"), lateBearer = canaries.make("reset-late-bearer")
        forwarded += [late, lateBearer]
        let reset = try await curl("/reset-late?sig=\(late)", id: "rid-reset-late", headers: ["Authorization: Bearer \(lateBearer)"])
        #expect(reset.exit != 0, "reset after 10 bytes: \(reset)")
    }

    /// Error paths: upstream down, pin mismatch, a status fault, a reset before the response,
    /// malformed requests.
    private func sendFailing() async throws {
        let down = try await curl("/down/x?access_token=\(canaries.make("down-query"))", id: "rid-down",
                                  headers: ["Authorization: Bearer \(canaries.make("down-bearer"))"])
        #expect(down.exit == 0 && down.status == 502, "upstream down: \(down)")
        let pinned = try await curl("/pinned/x?token=\(canaries.make("pinned-query"))", id: "rid-pinned",
                                    headers: ["X-Api-Key: \(canaries.make("pinned-api-key"))"])
        #expect(pinned.exit == 0 && pinned.status == 502, "pin mismatch: \(pinned)")
        let status = try await curl("/status-fault?api_key=\(canaries.make("status-query"))", id: "rid-status",
                                    headers: ["Cookie: sid=\(canaries.make("status-cookie"))"],
                                    body: "{\"password\":\"\(canaries.make("status-body"))\"}", contentType: "application/json")
        #expect(status.exit == 0 && status.status == 503, "status fault: \(status)")
        let reset = try await curl("/reset-early?password=\(canaries.make("reset-query"))", id: "rid-reset-early",
                                   headers: ["X-Auth-Token: \(canaries.make("reset-token"))"])
        #expect(reset.exit != 0 && reset.status == 0, "reset before the response: \(reset)")

        let twoHosts = try await raw("GET /bad?token=\(canaries.make("bad-host-query")) HTTP/1.1\r\nHost: a\r\n"
                                     + "Authorization: Bearer \(canaries.make("bad-host-bearer"))\r\nX-Request-ID: rid-bad-host\r\nHost: b\r\n\r\n")
        #expect(twoHosts?.status == 400, "two Host headers: \(String(describing: twoHosts?.status))")
        let bothLengths = try await raw("POST /bad?client_secret=\(canaries.make("bad-length-query")) HTTP/1.1\r\nHost: a\r\n"
                                        + "X-Api-Key: \(canaries.make("bad-length-key"))\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n")
        #expect(bothLengths?.status == 400, "Content-Length with Transfer-Encoding: \(String(describing: bothLengths?.status))")
        let badVersion = try await raw("GET /bad?password=\(canaries.make("bad-version-query")) HTTP/9.9\r\nHost: a\r\n"
                                       + "Cookie: sid=\(canaries.make("bad-version-cookie"))\r\n\r\n")
        #expect(badVersion?.status == 400, "bad version: \(String(describing: badVersion?.status))")
        #expect(bothLengths?.header("X-Request-ID") != nil && badVersion?.header("X-Request-ID") != nil,
                "Faultline's own error responses carry X-Request-ID")

        // The client goes away in the middle of its request body.
        let port = proxy.port
        let partial = "POST /api/upload?token=\(canaries.make("closed-query")) HTTP/1.1\r\nHost: a\r\n"
            + "Authorization: Bearer \(canaries.make("closed-bearer"))\r\nX-Request-ID: rid-client-closed\r\n"
            + "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"password\":\"\(canaries.make("closed-body"))\","
        try await Blocking.run {
            let client = try RawClient(port: port)
            try client.send(partial)
            client.close()
        }
        ids.append("rid-client-closed")
    }

    // MARK: Reading

    /// The records once every exchange sent has one, and the pin and fault events are in.
    func waitForRecords() async throws -> [[String: Any]] {
        let read = { [self] () -> [[String: Any]] in
            destination == "file" ? LogFile.records(logPath) : LogFile.records(in: proxy.output)
        }
        _ = try await LogFile.waitForExchanges(ids, read)
        return try await Deadline.poll("pin and fault records", timeout: .seconds(5)) { () -> [[String: Any]]? in
            let records = read()
            let pins = records.filter { $0.kind == "pin" }
            let faults = records.filter { $0.kind == "fault" }.flatMap { ($0["faultline.fault"] as? [String]) ?? [] }
            let wanted = ["status-fault/status", "reset-early/reset", "reset-late/reset"]
            return !pins.isEmpty && wanted.allSatisfy(faults.contains) ? records : nil
        }
    }

    /// Fails the test for every secret (or trace of one) found in `text`.
    func expectNoLeak(in text: String, _ place: String, mayBeEmpty: Bool = false,
                      sourceLocation: SourceLocation = #_sourceLocation) {
        let leaks = canaries.leaks(in: text)
        #expect(leaks.purposes.isEmpty && leaks.lines.isEmpty,
                "secrets leaked into \(place) (\(destination) run): \(leaks.purposes)\n\(leaks.lines.joined(separator: "\n"))",
                sourceLocation: sourceLocation)
        #expect(mayBeEmpty || !text.isEmpty, "\(place) is empty (\(destination) run)", sourceLocation: sourceLocation)
    }
}

/// The canary test: secrets sent through every path Faultline logs —
/// headers, cookies, query, URL userinfo, JSON, form and text bodies, both directions,
/// error paths — must appear in no log line, no output and no HAR export (admin API and
/// `faultline har export`), while their
/// non-secret neighbours do, and the origin really received them.
@Suite(.timeLimit(.minutes(2)))
struct LoggingCanaryTests {
    @Test(arguments: ["file", "stdout"])
    func noSecretReachesTheLogTheOutputOrTheHAR(destination: String) async throws {
        let run = try await CanaryRun.start(destination: destination)
        defer { run.stop() }
        try await run.sendEverything()
        let records = try await run.waitForRecords()
        let har = try await run.proxy.har()
        let exportPath = run.proxy.directory.path("export.har")
        let exported = try await HARExportCLI.export(adminPort: try run.proxy.requireAdminPort(), output: exportPath)
        #expect(exported.status == 0, "faultline har export: \(exported.output)")
        let exportedText = LogFile.text(exportPath)

        // The secrets passed through: the origin received every forwarded one.
        let received = run.origin.received
        let missing = run.forwarded.filter { !received.contains($0) }
        #expect(missing.isEmpty, "the origin never received \(missing.count) secrets, so the test proves nothing for them: \(missing)")

        // No secret anywhere.
        if destination == "file" {
            run.expectNoLeak(in: LogFile.text(run.logPath), "the log file")
            #expect(!run.proxy.output.lines.contains { $0.text.hasPrefix("{") }, "records went to stdout as well as the file")
        }
        run.expectNoLeak(in: run.proxy.output.text, "the process's stdout and stderr")
        run.expectNoLeak(in: har.text, "the HAR export (GET /har)")
        #expect(HARValidator.problems(har.object).isEmpty, "\(HARValidator.problems(har.object).prefix(10))")
        run.expectNoLeak(in: exportedText, "the HAR written by faultline har export")
        run.expectNoLeak(in: exported.output, "faultline har export's output", mayBeEmpty: true)
        let exportedDocument = try JSONObject.parse(Array(exportedText.utf8))
        #expect(HARValidator.entries(exportedDocument).count == HARValidator.entries(har.object).count)

        Self.expectNeighbours(records)
        Self.expectHARNeighbours(har.object)
        Self.expectHARNeighbours(exportedDocument)
        Self.expectErrorRecords(records)
    }

    /// What is not secret is still there, so redaction is not "log nothing".
    static func expectNeighbours(_ records: [[String: Any]]) {
        guard let main = records.exchange("rid-main") else {
            Issue.record("no record for the main request")
            return
        }
        let query = main["url.query"] as? String ?? ""
        #expect(query.hasPrefix("q=shoes&") && query.hasSuffix("&page=2"), "url.query: \(query)")
        #expect(query.contains("access_token=[REDACTED]"), "url.query: \(query)")
        #expect(main.requestHeader("x-trace") == ["visible-neighbour"], "\(main.jsonText)")
        #expect(main.requestHeader("authorization") == ["Bearer [REDACTED]"], "\(main.jsonText)")
        #expect(main.requestHeader("proxy-authorization") == ["Basic [REDACTED]"], "\(main.jsonText)")
        #expect(main.requestHeader("cookie")?.first?.hasPrefix("sid=[REDACTED]; prefs=[REDACTED]; quoted=") == true, "\(main.jsonText)")
        #expect(main.requestHeader("referer")?.first?.contains("page=referer-visible") == true, "\(main.jsonText)")
        #expect(main.requestHeader("x-custom-credential") == ["[REDACTED]"], "\(main.jsonText)")
        let setCookies = main.responseHeader("set-cookie") ?? []
        #expect(setCookies.count == 2 && setCookies.contains { $0.hasPrefix("session=") && $0.contains("Path=/") }
                && setCookies.contains { $0.hasPrefix("theme=") }, "set-cookie: \(setCookies)")
        #expect(main.responseHeader("x-visible-response") == ["visible-response-neighbour"], "\(main.jsonText)")
        #expect(main.responseHeader("location")?.first?.contains("page=2") == true, "\(main.jsonText)")
        let responseBody = main["faultline.response.body"] as? String ?? ""
        #expect(responseBody.contains("alice-visible") && responseBody.contains("pro-visible"), "response body: \(responseBody)")
        let redacted = Set(main["faultline.redacted"] as? [String] ?? [])
        for field in ["request.header.authorization", "request.header.x-custom-credential", "request.cookie.sid",
                      "request.query.token", "request.query.access_token"] {
            #expect(redacted.contains(field), "faultline.redacted lacks \(field): \(redacted.sorted())")
        }
        #expect(redacted.contains { $0.hasPrefix("response.") }, "nothing of the response listed as redacted: \(redacted.sorted())")

        let bodies: [(id: String, key: String, neighbour: String)] = [
            ("rid-login", "faultline.request.body", "\"user\":\"alice-visible\""),
            ("rid-form", "faultline.request.body", "user=bob-visible"),
            ("rid-note", "faultline.request.body", "note: visible-note"),
            ("rid-text", "faultline.response.body", "status: ok-visible"),
        ]
        for body in bodies {
            let text = records.exchange(body.id)?[body.key] as? String ?? ""
            #expect(text.contains(body.neighbour) && text.contains("[REDACTED]"), "\(body.id) \(body.key): \(text)")
        }
        let userinfo = records.exchange("rid-userinfo")
        #expect(userinfo?["url.path"] as? String == "/api/userinfo", "\(userinfo?.jsonText ?? "no userinfo record")")
        #expect((userinfo?["faultline.redacted"] as? [String])?.contains("request.url.userinfo") == true,
                "\(userinfo?.jsonText ?? "no userinfo record")")
    }

    /// Each error path has its record, with the error named.
    static func expectErrorRecords(_ records: [[String: Any]]) {
        let expected: [(id: String, status: Int?, error: String?, fault: String?)] = [
            ("rid-down", 502, "upstream_connect", nil),
            ("rid-pinned", 502, "pin_mismatch", nil),
            ("rid-status", 503, nil, "status-fault/status"),
            ("rid-reset-early", nil, nil, "reset-early/reset"),
            ("rid-reset-late", nil, nil, "reset-late/reset"),
            ("rid-bad-host", 400, "bad_request", nil),
            ("rid-slow", 504, "upstream_timeout", nil),
            ("rid-client-closed", nil, "client_closed", nil),
        ]
        for item in expected {
            guard let record = records.exchange(item.id) else {
                Issue.record("no exchange record for \(item.id)")
                continue
            }
            if let status = item.status {
                #expect(record["http.response.status_code"] as? Int == status, "\(item.id): \(record.jsonText)")
            }
            if let error = item.error {
                #expect(record["error.type"] as? String == error, "\(item.id): \(record.jsonText)")
            }
            if let fault = item.fault {
                #expect((record["faultline.fault"] as? [String])?.contains(fault) == true, "\(item.id): \(record.jsonText)")
            }
        }
        let pin = records.first { $0.kind == "pin" }
        #expect(pin?["faultline.pin.result"] as? String == "mismatch", "\(pin?.jsonText ?? "no pin record")")
    }

    /// The HAR keeps the same neighbours: query parameter q, the X-Trace header, cookie names.
    static func expectHARNeighbours(_ document: [String: Any]) {
        let entries = HARValidator.entries(document)
        guard let main = entries.first(where: { $0["_requestId"] as? String == "rid-main" }),
              let request = main["request"] as? [String: Any], let response = main["response"] as? [String: Any] else {
            Issue.record("no HAR entry for the main request among \(entries.count)")
            return
        }
        let pairs = { (key: String, object: [String: Any]) -> [(String, String)] in
            ((object[key] as? [[String: Any]]) ?? []).map { ($0["name"] as? String ?? "", $0["value"] as? String ?? "") }
        }
        let query = pairs("queryString", request)
        #expect(query.contains { $0 == ("q", "shoes") }, "queryString: \(query)")
        #expect(query.contains { $0 == ("token", "[REDACTED]") }, "queryString: \(query)")
        #expect(pairs("headers", request).contains { $0.0.lowercased() == "x-trace" && $0.1 == "visible-neighbour" }, "\(request)")
        #expect(pairs("cookies", request).map(\.0) == ["sid", "prefs", "quoted"], "request cookies: \(pairs("cookies", request))")
        #expect(pairs("cookies", request).allSatisfy { $0.1 == "[REDACTED]" }, "request cookies: \(pairs("cookies", request))")
        #expect(Set(pairs("cookies", response).map(\.0)) == ["session", "theme"], "response cookies: \(pairs("cookies", response))")
        let content = (response["content"] as? [String: Any])?["text"] as? String ?? ""
        #expect(content.contains("alice-visible"), "response content: \(content)")
        let login = entries.first { $0["_requestId"] as? String == "rid-login" }
        let post = ((login?["request"] as? [String: Any])?["postData"] as? [String: Any])?["text"] as? String ?? ""
        #expect(post.contains("\"user\":\"alice-visible\"") && post.contains("[REDACTED]"), "login postData: \(post)")
    }
}

/// `faultline har export`.
enum HARExportCLI {
    /// Runs `faultline har export --admin 127.0.0.1:PORT --output FILE`.
    static func export(adminPort: Int, output: String) async throws -> (status: Int32, output: String) {
        try await FaultlineProcess.command(["har", "export", "--admin", "127.0.0.1:\(adminPort)", "--output", output])
    }
}
