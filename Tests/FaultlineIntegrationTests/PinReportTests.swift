import Foundation
import Testing
import FaultlineTestSupport

/// `POST /pins/reports` through the binary: TrustKit and RFC 7469 pin failure reports built
/// from a minted chain are validated, logged redacted as records of their own (pins, never
/// certificates), counted in `/metrics` with bounded labels and shown by `GET /pins` and
/// `GET /pins/reports`; malformed and oversized bodies are refused naming the problem, and
/// the proxy goes on serving.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct PinReportTests {
    /// A proxy in front of a TLS origin (upstream `o`: host localhost, server name api.test),
    /// logging JSON to `traffic.log`.
    private static func start(_ chain: TLSChain) async throws -> (TLSProxy, TLSOriginProcess) {
        let origin = try await TLSOriginProcess.python(chain: chain.path("chain.pem"), key: chain.path("leaf.key"))
        let upstream = TLSProxyConfig.upstream(port: origin.port, caFile: chain.path("root.pem"))
        let api = TLSProxyConfig.upstream(port: origin.port, caFile: chain.path("root.pem"), serverName: "api.test")
        var config = TLSProxyConfig.root(listeners: [TLSProxyConfig.plainListener], upstreams: ["o": upstream, "api": api],
                                         routes: [["name": "all", "upstream": "o"]], workers: 1)
        config["log"] = ["format": "json", "destination": "file", "path": "traffic.log"]
        return (try await TLSProxy.start(config), origin)
    }

    /// A certificate of the minted chain as TrustKit writes it: base64 in 64-column lines
    /// ending in CRLF, between BEGIN and END lines.
    private static func trustKitPEM(_ chain: TLSChain, _ name: String) throws -> String {
        let text = try String(contentsOfFile: chain.path("\(name).pem"), encoding: .utf8)
        let body = text.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined(separator: "\r\n")
        return "-----BEGIN CERTIFICATE-----\n\(body)\n-----END CERTIFICATE-----"
    }

    static func trustKitReport(_ chain: TLSChain, hostname: String = "api.test") throws -> [String: Any] {
        [
            "app-bundle-id": "com.example.shop", "app-version": "4.2", "app-platform": "IOS", "app-platform-version": "18.1.0",
            "app-vendor-id": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "trustkit-version": "3.0.4",
            "date-time": "2026-12-01T10:00:00Z", "hostname": hostname, "port": 443, "noted-hostname": "api.test",
            "include-subdomains": false, "enforce-pinning": true,
            "validated-certificate-chain": try ["leaf", "int", "root"].map { try trustKitPEM(chain, $0) },
            "known-pins": ["pin-sha256=\"\(chain.pin("rotated"))\"", "pin-sha256=\"\(chain.pin("backup"))\""],
            "validation-result": 1, "known-pins-expiration-date": "2027-06-30",
            // Neither format has these: kept aside, through the free-text redaction.
            "x-session-token": "s3cr3t-session-value", "note": "sent from the staging build",
        ]
    }

    static func hpkpReport(_ chain: TLSChain, hostname: String) throws -> [String: Any] {
        let pem = { (name: String) throws -> String in try String(contentsOfFile: chain.path("\(name).pem"), encoding: .utf8) }
        return [
            "date-time": "2026-12-01T10:05:00.250Z", "hostname": hostname, "port": 8443,
            "effective-expiration-date": "2027-01-01T00:00:00Z", "include-subdomains": true, "noted-hostname": "example.org",
            "served-certificate-chain": try [pem("leaf"), pem("int")],
            "validated-certificate-chain": try [pem("leaf"), pem("int"), pem("root")],
            "known-pins": ["pin-sha256=\"\(chain.pin("backup"))\""],
        ]
    }

    /// POSTs `body` to the admin API; the status and the answer's text.
    static func post(_ adminPort: Int, _ body: String, path: String = "/pins/reports",
                     contentType: String = "application/json") async throws -> (status: Int, text: String) {
        let directory = try TemporaryDirectory()
        let file = try directory.write("body.json", body)
        let marker = "\n@@status@@ "
        let result = try await Curl.run(["-X", "POST", "-H", "Content-Type: \(contentType)", "--data-binary", "@\(file)",
                                         "-w", "\(marker)%{http_code}", "http://127.0.0.1:\(adminPort)\(path)"])
        let text = result.text
        guard result.exitCode == 0, let range = text.range(of: marker, options: .backwards), let status = Int(text[range.upperBound...]) else {
            throw TestFailure("POST \(path): curl exit \(result.exitCode) \(result.stderr) \(text.prefix(300))")
        }
        return (status, String(text[..<range.lowerBound]))
    }

    static func json(_ object: [String: Any]) -> String {
        TLSProxyConfig.json(object)
    }

    @Test func reportsAreLoggedRedactedCountedAndKept() async throws {
        let chain = try await TLSChainFactory.make()
        let (proxy, origin) = try await Self.start(chain)
        defer { proxy.kill(); origin.kill() }
        let admin = try proxy.requireAdminPort()

        let trustKit = try await Self.post(admin, Self.json(try Self.trustKitReport(chain)))
        #expect(trustKit.status == 201, "\(trustKit.text)")
        let kept = try JSONObject.parse(Array(trustKit.text.utf8))
        #expect(kept["id"] as? Int == 1 && kept["format"] as? String == "trustkit" && kept["label"] as? String == "api.test", "\(kept)")
        let hpkp = try await Self.post(admin, Self.json(try Self.hpkpReport(chain, hostname: "www.example.org?access_token=abc123secret")))
        #expect(hpkp.status == 201, "\(hpkp.text)")
        #expect(!hpkp.text.contains("abc123secret") && hpkp.text.contains("[REDACTED]"), "\(hpkp.text)")

        // One record each, kind pin; certificates only as position, subject and SPKI pin.
        let path = proxy.directory.path("traffic.log")
        let records = try await Deadline.poll("two pin report records", timeout: .seconds(10)) { () -> [[String: Any]]? in
            let reports = LogFile.records(path).filter { $0["faultline.pin.report.format"] != nil }
            return reports.count == 2 ? reports : nil
        }
        let logText = LogFile.text(path)
        #expect(!logText.contains("BEGIN CERTIFICATE") && !logText.contains("abc123secret") && !logText.contains("s3cr3t-session-value"),
                "no certificate and no secret in the log: \(logText)")
        let app = try #require(records.first { $0["faultline.pin.report.format"] as? String == "trustkit" })
        #expect(app.kind == "pin" && app["faultline.pin.result"] == nil, "\(app.jsonText)")
        #expect(app["server.address"] as? String == "api.test" && app["server.port"] as? Int == 443, "\(app.jsonText)")
        #expect(app["faultline.pin.report.app_bundle_id"] as? String == "com.example.shop", "\(app.jsonText)")
        #expect(app["faultline.pin.report.app_vendor_id"] as? String == "E621E1F8-C36C-495A-93FC-0C247A3E6E5F",
                "a vendor id is not a secret: \(app.jsonText)")
        #expect(app["faultline.pin.report.app_version"] as? String == "4.2" && app["faultline.pin.report.trustkit_version"] as? String == "3.0.4")
        #expect(app["faultline.pin.report.validation_result"] as? String == "failed-no-matching-pin", "\(app.jsonText)")
        #expect(app["faultline.pin.report.enforce_pinning"] as? String == "true", "\(app.jsonText)")
        #expect(app["faultline.pin.report.known_pins"] as? [String] == ["sha256/\(chain.pin("rotated"))", "sha256/\(chain.pin("backup"))"])
        let validated = app["faultline.pin.report.validated_chain"] as? [[String: String]] ?? []
        #expect(validated.map { $0["position"] } == ["leaf", "intermediate", "root"], "\(app.jsonText)")
        #expect(validated.map { $0["pin-sha256"] } == [chain.pin("leaf"), chain.pin("int"), chain.pin("root")], "\(app.jsonText)")
        #expect(validated.first?["subject"] == "CN=localhost", "\(app.jsonText)")
        let extra = try #require(app["faultline.pin.report.extra"] as? String)
        #expect(extra.contains("staging build") && extra.contains("[REDACTED]"), "the token-looking member is redacted: \(extra)")
        #expect((app["faultline.redacted"] as? [String] ?? []).contains { $0.contains("session") }, "\(app.jsonText)")
        let message = app["faultline.message"] as? String ?? ""
        #expect(message == "pin failure report (trustkit) for api.test:443 from com.example.shop 4.2: no known pin is in the validated chain; failed-no-matching-pin, the app refused the connection",
                "\(message)")

        let web = try #require(records.first { $0["faultline.pin.report.format"] as? String == "hpkp" })
        #expect(web["server.address"] == nil, "a host name with a query string is no server.address: \(web.jsonText)")
        let hostname = web["faultline.pin.report.hostname"] as? String ?? ""
        #expect(hostname.hasPrefix("www.example.org?access_token=") && hostname.contains("[REDACTED]"), "\(web.jsonText)")
        #expect((web["faultline.pin.report.served_chain"] as? [[String: String]] ?? []).map { $0["pin-sha256"] }
                == [chain.pin("leaf"), chain.pin("int")], "\(web.jsonText)")
        #expect(web["faultline.pin.report.effective_expiration_date"] as? String == "2027-01-01T00:00:00Z", "\(web.jsonText)")
        #expect(web["faultline.pin.report.include_subdomains"] as? String == "true", "\(web.jsonText)")

        // Counted: the known name is its own label, a name with a query string is "other".
        let metrics = try await MetricsScrape.read(adminPort: admin)
        #expect(metrics.families["faultline_pin_failure_reports"] == "counter", "\(metrics.families)")
        #expect(metrics.value("faultline_pin_failure_reports_total", ["hostname": "api.test", "format": "trustkit"]) == 1)
        #expect(metrics.value("faultline_pin_failure_reports_total", ["hostname": "other", "format": "hpkp"]) == 1)
        #expect(metrics.all("faultline_pin_failure_reports_total").count == 2, "\(metrics.all("faultline_pin_failure_reports_total"))")

        // GET /pins: the upstream status as before, and the reports beside it.
        let pins = try await AdminRequests.json(port: admin, "GET", "/pins")
        #expect(pins["upstreams"] is [String: Any], "\(pins)")
        let section = try #require(pins["reports"] as? [String: Any], "\(pins)")
        #expect(section["total"] as? Int == 2 && section["kept"] as? Int == 2, "\(section)")
        let counts = section["counts"] as? [[String: Any]] ?? []
        #expect(counts.count == 2 && counts.contains { $0["hostname"] as? String == "api.test" && $0["reports"] as? Int == 1 }, "\(counts)")
        let recent = section["reports"] as? [[String: Any]] ?? []
        #expect(recent.map { $0["id"] as? Int } == [2, 1], "newest first: \(recent)")

        // GET /pins/reports: what was kept, redacted, certificates as pins.
        let (status, body) = try await AdminRequests.send(port: admin, "GET", "/pins/reports")
        let listing = String(decoding: body, as: UTF8.self)
        #expect(status == 200 && !listing.contains("BEGIN CERTIFICATE") && !listing.contains("abc123secret"), "\(listing)")
        let list = try JSONObject.parse(body)
        let reports = list["reports"] as? [[String: Any]] ?? []
        let first = try #require(reports.last, "\(listing)")
        let appPart = first["app"] as? [String: Any] ?? [:]
        #expect(appPart["bundle_id"] as? String == "com.example.shop" && appPart["validation_result"] as? String == "failed-no-matching-pin", "\(first)")
        #expect((first["validated_chain"] as? [[String: Any]])?.map { $0["pin"] as? String } == [
            "sha256/\(chain.pin("leaf"))", "sha256/\(chain.pin("int"))", "sha256/\(chain.pin("root"))",
        ], "\(first)")
        #expect((first["matched"] as? [String]) == [], "no known pin is in the chain: \(first)")
    }

    /// Members neither format defines are JSON and are redacted as a JSON body is: a
    /// sensitive member goes whole whatever its type (an array, an object, a number), and
    /// `pin` is a sensitive field name. Nothing of them may reach the 201 answer,
    /// `GET /pins/reports` or the log; the other members stay.
    @Test func extraMembersAreRedactedAsJSON() async throws {
        let chain = try await TLSChainFactory.make()
        let (proxy, origin) = try await Self.start(chain)
        defer { proxy.kill(); origin.kill() }
        let admin = try proxy.requireAdminPort()
        let secrets = ["S3CRET-ARRAY-77", "S3CRET-OBJECT-78", "S3CRET-TOKENS-79", "S3CRET-TOKENS-80", "135790"]
        var report = try Self.trustKitReport(chain)
        report["api_key"] = [secrets[0]]
        report["client_secret"] = ["v": secrets[1]]
        report["tokens"] = [secrets[2], ["nested": secrets[3]]]
        report["pin"] = 135790
        report["note"] = "sent from the staging build"
        let answer = try await Self.post(admin, Self.json(report))
        #expect(answer.status == 201, "\(answer.text)")
        let (_, listing) = try await AdminRequests.send(port: admin, "GET", "/pins/reports")
        let path = proxy.directory.path("traffic.log")
        let record = try await Deadline.poll("the pin report record", timeout: .seconds(10)) { () -> [String: Any]? in
            LogFile.records(path).first { $0["faultline.pin.report.format"] != nil }
        }
        let places = [("the 201 answer", answer.text), ("GET /pins/reports", String(decoding: listing, as: UTF8.self)),
                      ("the log", LogFile.text(path))]
        for (place, text) in places {
            for secret in secrets {
                #expect(!text.contains(secret), "\(secret) reached \(place): \(text)")
            }
            #expect(text.contains("staging build"), "\(place): \(text)")
        }
        let summary = try JSONObject.parse(Array(answer.text.utf8))
        let extra = try JSONObject.parse(Array((summary["extra"] as? String ?? "").utf8))
        for key in ["api_key", "client_secret", "pin", "tokens"] {
            #expect(extra[key] as? String == "[REDACTED]", "\(key): \(extra)")
        }
        let logged = try JSONObject.parse(Array((record["faultline.pin.report.extra"] as? String ?? "").utf8))
        #expect(logged["pin"] as? String == "[REDACTED]" && logged["note"] as? String == "sent from the staging build", "\(logged)")
        let redacted = record["faultline.redacted"] as? [String] ?? []
        #expect(redacted.contains("faultline.pin.report.extra.api_key") && redacted.contains("faultline.pin.report.extra.pin"),
                "\(redacted)")
    }

    @Test func hostNameLabelsAreBoundedAndAKnownPinInTheChainIsShown() async throws {
        let chain = try await TLSChainFactory.make()
        let (proxy, origin) = try await Self.start(chain)
        defer { proxy.kill(); origin.kill() }
        let admin = try proxy.requireAdminPort()
        // 17 names outside the configuration: the first 16 get labels, the 17th is "other";
        // a configured name (localhost, upstream o) always gets its own.
        for index in 0...16 {
            let answer = try await Self.post(admin, Self.json(try Self.hpkpReport(chain, hostname: "host\(index).example.net")))
            #expect(answer.status == 201, "\(answer.text)")
        }
        var report = try Self.hpkpReport(chain, hostname: "LOCALHOST.")
        report["known-pins"] = ["pin-sha256=\"\(chain.pin("int"))\"", "sha256/\(chain.pin("backup"))"]
        let known = try await Self.post(admin, Self.json(report))
        #expect(known.status == 201, "\(known.text)")
        let summary = try JSONObject.parse(Array(known.text.utf8))
        #expect(summary["label"] as? String == "localhost", "\(summary)")
        #expect(summary["matched"] as? [String] == ["sha256/\(chain.pin("int")) matched the intermediate CN=Faultline Test Intermediate"],
                "\(summary)")
        let metrics = try await MetricsScrape.read(adminPort: admin)
        let samples = metrics.all("faultline_pin_failure_reports_total")
        let labels = Set(samples.compactMap { $0.labels["hostname"] })
        #expect(labels.count == 18, "16 unknown names, other and localhost: \(labels.sorted())")
        #expect(metrics.value("faultline_pin_failure_reports_total", ["hostname": "other", "format": "hpkp"]) == 1)
        #expect(metrics.value("faultline_pin_failure_reports_total", ["hostname": "host15.example.net", "format": "hpkp"]) == 1)
        #expect(metrics.value("faultline_pin_failure_reports_total", ["hostname": "localhost", "format": "hpkp"]) == 1)
        #expect(samples.reduce(0) { $0 + $1.value } == 18)
        let pins = try await AdminRequests.json(port: admin, "GET", "/pins")
        let section = pins["reports"] as? [String: Any] ?? [:]
        #expect(section["total"] as? Int == 18 && (section["reports"] as? [Any])?.count == 18, "all 18, at most 20: \(section)")
    }

    @Test func malformedAndOversizedReportsAreRefusedNamingTheProblem() async throws {
        let chain = try await TLSChainFactory.make()
        let (proxy, origin) = try await Self.start(chain)
        defer { proxy.kill(); origin.kill() }
        let admin = try proxy.requireAdminPort()
        let good = try Self.trustKitReport(chain)
        func without(_ key: String) -> [String: Any] { good.filter { $0.key != key } }
        func with(_ key: String, _ value: Any) -> [String: Any] {
            var copy = good
            copy[key] = value
            return copy
        }
        let cases: [(body: String, status: Int, field: String?, says: String)] = [
            ("", 400, nil, "empty body"),
            ("{\"hostname\": ", 400, nil, "not valid JSON"),
            ("[1, 2]", 400, nil, "expected a JSON object, got an array"),
            (Self.json(without("app-vendor-id")), 400, "app-vendor-id", "app-vendor-id: missing"),
            (Self.json(with("port", "443")), 400, "port", "port: expected an integer 0...65535, got a string"),
            (Self.json(with("port", 70000)), 400, "port", "port: expected an integer 0...65535, got a number"),
            (Self.json(with("enforce-pinning", 1)), 400, "enforce-pinning", "enforce-pinning: expected true or false, got a number"),
            (Self.json(with("validation-result", 9)), 400, "validation-result", "validation-result: expected an integer 0...5"),
            (Self.json(with("date-time", "yesterday")), 400, "date-time", "date-time: expected an RFC 3339 date-time"),
            (Self.json(with("known-pins", ["pin-sha256=\"nope\""])), 400, "known-pins[0]", "known-pins[0]: "),
            (Self.json(with("validated-certificate-chain", [try Self.trustKitPEM(chain, "leaf"), "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----"])),
             400, "validated-certificate-chain[1]", "validated-certificate-chain[1]: not a readable certificate"),
            (Self.json(with("hostname", "api.test\nX-Injected: 1")), 400, "hostname", "hostname: contains control characters"),
            (Self.json(try Self.hpkpReport(chain, hostname: "example.org").filter { $0.key != "served-certificate-chain" }), 400,
             "served-certificate-chain", "served-certificate-chain: missing"),
        ]
        for item in cases {
            let answer = try await Self.post(admin, item.body)
            #expect(answer.status == item.status, "\(item.says): \(answer.text)")
            let object = (try? JSONObject.parse(Array(answer.text.utf8))) ?? [:]
            #expect(object["field"] as? String == item.field, "\(item.says): \(answer.text)")
            #expect((object["error"] as? String ?? "").contains(item.says), "\(item.says): \(answer.text)")
            #expect(!answer.text.contains("s3cr3t"), "a refusal does not echo the report: \(answer.text)")
        }
        // Past the report limit (64 KiB): 413, however well-formed the rest.
        let padded = with("note", String(repeating: "x", count: 70_000))
        let large = try await Self.post(admin, Self.json(padded))
        #expect(large.status == 413 && large.text.contains("larger than 65536 bytes"), "\(large.text)")
        // Not JSON by its type: the admin API's CSRF rule answers first.
        let form = try await Self.post(admin, Self.json(good), contentType: "text/plain")
        #expect(form.status == 415, "\(form.text)")
        let wrongMethod = try await AdminRequests.send(port: admin, "DELETE", "/pins/reports")
        #expect(wrongMethod.status == 405, "\(String(decoding: wrongMethod.body, as: UTF8.self))")
        let nested = try await AdminRequests.send(port: admin, "GET", "/pins/reports/1")
        #expect(nested.status == 404)

        // Nothing was counted, and the proxy goes on serving.
        let list = try await AdminRequests.json(port: admin, "GET", "/pins/reports")
        #expect(list["total"] as? Int == 0, "\(list)")
        let metrics = try await MetricsScrape.read(adminPort: admin)
        #expect(metrics.all("faultline_pin_failure_reports_total").isEmpty && metrics.families["faultline_pin_failure_reports"] == "counter")
        let reply = try await TLSCurl.get(proxy.url("/after-reports"))
        #expect(reply.status == 200, "\(reply)")
        let accepted = try await Self.post(admin, Self.json(good))
        #expect(accepted.status == 201, "\(accepted.text)")
    }
}
