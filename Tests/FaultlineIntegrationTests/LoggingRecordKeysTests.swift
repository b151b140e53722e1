import Foundation
import Testing
import FaultlineTestSupport

/// Every record kind the proxy writes (exchange, pin verdict, pin warning, fault, client and
/// upstream TLS failures) and the HAR document parse with a checker that refuses a repeated
/// key: JSON consumers keep only one of them, so a repeated key loses data (
/// a pin record repeated `faultline.pin.observed` once per certificate).
@Suite(.timeLimit(.minutes(2)))
struct LoggingRecordKeysTests {
    @Test func everyRecordKindAndTheHARHaveUniqueKeys() async throws {
        let chain = try await TLSChainFactory.make()
        let origin = try await TLSOriginProcess.python(chain: chain.path("chain.pem"), key: chain.path("leaf.key"))
        defer { origin.kill() }
        let rotated = try await TLSOriginProcess.python(chain: chain.path("rotated-chain.pem"), key: chain.path("rotated.key"))
        defer { rotated.kill() }
        let untrusted = try await TLSOriginProcess.python(chain: chain.path("untrusted-chain.pem"), key: chain.path("untrusted.key"))
        defer { untrusted.kill() }
        // Pinning the intermediate matches and raises a warning; the rotated leaf's chain still
        // matches the intermediate pin, so the enforce mismatch pins the leaf and the backup.
        let upstreams: [String: [String: Any]] = [
            "matched": TLSProxyConfig.upstream(port: origin.port, caFile: chain.path("root.pem"),
                                               pins: ["sha256": [chain.pin("int"), chain.pin("backup")], "mode": "enforce"]),
            "refused": TLSProxyConfig.upstream(port: rotated.port, caFile: chain.path("root.pem"),
                                               pins: ["sha256": [chain.pin("leaf"), chain.pin("backup")], "mode": "enforce"]),
            "untrusted": TLSProxyConfig.upstream(port: untrusted.port, caFile: chain.path("root.pem")),
        ]
        var config = TLSProxyConfig.root(
            listeners: [TLSProxyConfig.plainListener,
                        TLSProxyConfig.tlsListener(certificate: chain.path("chain.pem"), key: chain.path("leaf.key"))],
            upstreams: upstreams,
            routes: [
                LoggingConfig.route("refused", prefix: "/refused", upstream: "refused"),
                LoggingConfig.route("untrusted", prefix: "/untrusted", upstream: "untrusted"),
                LoggingConfig.route("faulty", prefix: "/faulty", upstream: "matched",
                                    faults: [["status": ["code": 503, "body": "down", "content_type": "text/plain"]]]),
                LoggingConfig.route("matched", upstream: "matched"),
            ])
        config["log"] = ["format": "json", "destination": "file", "path": "traffic.log", "headers": true, "bodies": true]
        let proxy = try await TLSProxy.start(config)
        defer { proxy.kill() }

        var ids: [String] = []
        for (id, path, status) in [("keys-match", "/ok", 200), ("keys-refused", "/refused/x", 502),
                                   ("keys-untrusted", "/untrusted/x", 502), ("keys-fault", "/faulty/x", 503)] {
            let reply = try await TLSCurl.get(proxy.url(path), ["-H", "X-Request-ID: \(id)", "-H", "X-Dup: 1", "-H", "X-Dup: 2"])
            #expect(reply.status == status, "\(id): \(reply)")
            ids.append(id)
        }
        // Plain HTTP on the TLS listener: a client TLS failure.
        let tlsPort = proxy.ports[1]
        try await Blocking.run {
            let client = try RawClient(port: tlsPort)
            defer { client.close() }
            try client.send("GET / HTTP/1.1\r\nHost: a\r\n\r\n")
            _ = client.readResponses(1, timeout: .seconds(2))
        }

        let path = proxy.directory.path("traffic.log")
        _ = try await LogFile.waitForExchanges(ids, in: path)
        let lines = try await Deadline.poll("every record kind", timeout: .seconds(5)) { () -> [String]? in
            let lines = LogFile.lines(path)
            let kinds = Set(lines.compactMap { LogFile.parse($0)?.kind })
            let tlsRecords = lines.filter { $0.contains("\"kind\":\"tls\"") }.count
            return kinds.isSuperset(of: ["exchange", "pin", "fault", "tls"]) && tlsRecords >= 2 ? lines : nil
        }
        for line in lines {
            #expect(StrictJSON.problem(line) == nil, "\(StrictJSON.problem(line) ?? ""): \(line)")
        }
        let records = lines.compactMap(LogFile.parse)
        let pins = records.filter { $0.kind == "pin" }
        #expect(pins.contains { $0["faultline.pin.result"] as? String == "warning" }, "no pin warning record: \(pins)")
        #expect(pins.contains { $0["faultline.pin.result"] as? String == "mismatch" }, "no mismatch record: \(pins)")
        // Redaction leaves Faultline's own words alone ("…matched no configured pin: refused…").
        #expect(!pins.contains { ($0["faultline.message"] as? String ?? "").contains("[REDACTED]") }, "\(pins)")
        let verdict = try #require(pins.first { $0["faultline.pin.result"] as? String == "match" }, "\(pins)")
        // The chain is one array of objects, leaf first.
        let chainEntries = verdict["faultline.pin.chain"] as? [[String: Any]] ?? []
        #expect(chainEntries.count >= 2, "the verified chain (leaf first) as an array: \(verdict)")
        #expect(chainEntries.first?["position"] as? String == "leaf" && chainEntries.allSatisfy { $0["pin-sha256"] is String },
                "\(chainEntries)")
        let matched = verdict["faultline.pin.matched"] as? [String] ?? []
        #expect(matched.count == 1 && matched[0].contains(chain.pin("int")), "matches as an array: \(verdict)")

        // HTTP/1 exchanges carry their version and none of the HTTP/2 fields.
        let exchanges = records.filter { $0.kind == "exchange" }
        #expect(exchanges.count >= ids.count && exchanges.allSatisfy { $0["network.protocol.version"] as? String == "1.1" },
                "\(exchanges.map { $0["network.protocol.version"] ?? "-" })")
        #expect(!lines.contains { $0.contains("\"http2.") }, "an HTTP/1 record with an http2 key")

        let har = try await proxy.har()
        #expect(StrictJSON.problem(har.text) == nil, "HAR: \(StrictJSON.problem(har.text) ?? "")")
        #expect(HARValidator.entries(har.object).count >= ids.count)
        for entry in HARValidator.entries(har.object) {
            #expect((entry["request"] as? [String: Any])?["httpVersion"] as? String == "HTTP/1.1")
            #expect(entry["_streamId"] == nil && entry["_http2ErrorCode"] == nil, "\(entry.keys.sorted())")
        }
    }
}
