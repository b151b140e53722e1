import Foundation
import Testing
import FaultlineTestSupport

/// SPKI pins on an https upstream, through the real binary: chains minted with the openssl
/// CLI, served by a Python TLS origin that logs every connection and request.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct PinEnforcementTests {
    /// Pins with a backup that is never served.
    static func pins(_ live: [String], mode: String = "enforce", extra: [String: Any] = [:]) -> [String: Any] {
        var object: [String: Any] = ["sha256": live, "mode": mode]
        for (name, value) in extra { object[name] = value }
        return object
    }

    static func route(_ prefix: String, _ upstream: String) -> [String: Any] {
        ["name": upstream, "match": ["path_prefix": prefix], "upstream": upstream]
    }

    @Test func pinsOnLeafIntermediateRootAndBackupOnlyEachPass() async throws {
        let chain = try await TLSChainFactory.make()
        let origin = try await TLSOriginProcess.python(chain: chain.path("chain.pem"), key: chain.path("leaf.key"))
        let ca = chain.path("root.pem")
        let backup = chain.pin("backup")
        // "backup": the first pin is not in the chain (the next key), only the second matches.
        let sets: [(name: String, pins: [String], position: String)] = [
            ("leaf", [chain.pin("leaf"), backup], "leaf"),
            ("intermediate", [chain.pin("int"), backup], "intermediate"),
            ("root", [chain.pin("root"), backup], "root"),
            ("backup", [chain.pin("rotated"), chain.pin("leaf")], "leaf"),
        ]
        var upstreams: [String: [String: Any]] = [:]
        for set in sets {
            upstreams[set.name] = TLSProxyConfig.upstream(port: origin.port, caFile: ca, pins: Self.pins(set.pins))
        }
        let proxy = try await TLSProxy.start(TLSProxyConfig.root(
            listeners: [TLSProxyConfig.plainListener], upstreams: upstreams,
            routes: sets.map { Self.route("/\($0.name)", $0.name) }))
        for set in sets {
            let reply = try await TLSCurl.get(proxy.url("/\(set.name)/x"))
            #expect(reply.exitCode == 0 && reply.status == 200, "\(set.name): \(reply)")
            #expect(reply.body.contains("\"path\": \"/\(set.name)/x\""), "\(set.name): \(reply.body)")
            let status = try await proxy.pinStatus(set.name)
            let live = status["live"] as? [String: Any]
            #expect(live?["passed"] as? Int == 1 && live?["failed"] as? Int == 0, "\(set.name): \(status)")
            let matches = (status["last_matches"] as? [String]) ?? []
            #expect(matches.contains { $0.contains("matched the \(set.position)") }, "\(set.name): \(matches)")
            let lastChain = (status["last_chain"] as? [[String: Any]]) ?? []
            #expect(lastChain.map { $0["position"] as? String } == ["leaf", "intermediate", "root"], "\(set.name): \(lastChain)")
            #expect(lastChain.first?["pin"] as? String == "sha256/\(chain.pin("leaf"))", "\(set.name): \(lastChain)")
        }
        #expect(origin.requests.count == sets.count, "\(origin.output.text)")
    }

    @Test func rotationOldChainPassesRotatedChainFailsLiveButPassesCandidate() async throws {
        let chain = try await TLSChainFactory.make()
        let old = try await TLSOriginProcess.python(chain: chain.path("chain.pem"), key: chain.path("leaf.key"))
        let rotated = try await TLSOriginProcess.python(chain: chain.path("rotated-chain.pem"), key: chain.path("rotated.key"))
        let ca = chain.path("root.pem")
        let pins = Self.pins([chain.pin("leaf"), chain.pin("backup")],
                             extra: ["candidate": ["sha256/" + chain.pin("rotated"), "sha256/" + chain.pin("backup")]])
        let proxy = try await TLSProxy.start(TLSProxyConfig.root(
            listeners: [TLSProxyConfig.plainListener],
            upstreams: ["old": TLSProxyConfig.upstream(port: old.port, caFile: ca, pins: pins),
                        "new": TLSProxyConfig.upstream(port: rotated.port, caFile: ca, pins: pins)],
            routes: [Self.route("/old", "old"), Self.route("/new", "new")]))

        let passed = try await TLSCurl.get(proxy.url("/old/a"))
        #expect(passed.status == 200 && passed.body.contains("/old/a"), "\(passed)")

        let refused = try await TLSCurl.get(proxy.url("/new/secret?token=1"))
        #expect(refused.exitCode == 0 && refused.status == 502, "\(refused)")
        #expect(refused.contentType.hasPrefix("application/json"), "\(refused)")
        let body = try JSONObject.parse(Array(refused.body.utf8))
        #expect(body["error"] as? String == "pin mismatch", "\(body)")
        #expect(body["upstream"] as? String == "new")
        #expect(body["host"] as? String == "localhost")
        #expect(body["port"] as? Int == rotated.port)
        #expect(body["mode"] as? String == "enforce")
        let expected = (body["expected_pins"] as? [String]) ?? []
        #expect(Set(expected) == Set(["sha256/" + chain.pin("leaf"), "sha256/" + chain.pin("backup")]), "\(expected)")
        let observed = (body["observed_chain"] as? [[String: Any]]) ?? []
        #expect(observed.map { $0["position"] as? String } == ["leaf", "intermediate", "root"], "\(observed)")
        #expect(observed.map { $0["pin"] as? String } == ["sha256/" + chain.pin("rotated"), "sha256/" + chain.pin("int"),
                                                         "sha256/" + chain.pin("root")], "\(observed)")
        #expect(observed.first?["subject"] as? String == "CN=localhost", "\(observed)")
        #expect((observed.last?["subject"] as? String)?.contains("Faultline Test Root") == true, "\(observed)")

        // A second request is refused as well: a refused connection is never pooled and reused.
        let again = try await TLSCurl.get(proxy.url("/new/again"))
        #expect(again.status == 502 && again.body.contains("pin mismatch"), "\(again)")
        // The rotated origin completed a handshake but never received a byte of the request.
        try await rotated.output.waitForLine(containing: " open ")
        #expect(rotated.requests.isEmpty, "the origin saw a request despite the pin mismatch:\n\(rotated.output.text)")
        #expect(old.requests.count == 1, "\(old.output.text)")

        let oldStatus = try await proxy.pinStatus("old")
        let oldLive = oldStatus["live"] as? [String: Any], oldCandidate = oldStatus["candidate"] as? [String: Any]
        #expect(oldLive?["passed"] as? Int == 1 && oldLive?["failed"] as? Int == 0, "\(oldStatus)")
        #expect(oldCandidate?["passed"] as? Int == 0 && oldCandidate?["failed"] as? Int == 1, "\(oldStatus)")
        #expect(oldCandidate?["ready"] as? Bool == false, "\(oldStatus)")
        #expect(oldStatus["last_candidate_failure"] != nil, "\(oldStatus)")

        let newStatus = try await proxy.pinStatus("new")
        let newLive = newStatus["live"] as? [String: Any], newCandidate = newStatus["candidate"] as? [String: Any]
        #expect(newLive?["passed"] as? Int == 0 && newLive?["failed"] as? Int == 2, "\(newStatus)")
        #expect(newCandidate?["passed"] as? Int == 2 && newCandidate?["failed"] as? Int == 0, "\(newStatus)")
        #expect(newCandidate?["ready"] as? Bool == true, "\(newStatus)")
        let failure = newStatus["last_live_failure"] as? [String: Any]
        let failureChain = (failure?["chain"] as? [[String: Any]]) ?? []
        #expect(failureChain.first?["pin"] as? String == "sha256/" + chain.pin("rotated"), "\(newStatus)")
        #expect(newStatus["last_candidate_failure"] == nil, "\(newStatus)")
    }

    @Test func reportModeForwardsAndPrintsAnRFC7469Report() async throws {
        let chain = try await TLSChainFactory.make()
        let origin = try await TLSOriginProcess.python(chain: chain.path("rotated-chain.pem"), key: chain.path("rotated.key"))
        let proxy = try await TLSProxy.start(TLSProxyConfig.root(
            listeners: [TLSProxyConfig.plainListener],
            upstreams: ["o": TLSProxyConfig.upstream(port: origin.port, caFile: chain.path("root.pem"),
                                                      pins: Self.pins([chain.pin("leaf"), chain.pin("backup")], mode: "report",
                                                                      extra: ["expires": "2099-01-01"]))]))
        let reply = try await TLSCurl.get(proxy.url("/reported"))
        #expect(reply.status == 200 && reply.body.contains("/reported"), "\(reply)")
        #expect(origin.requests.count == 1, "\(origin.output.text)")

        let prefix = "faultline: pin failure report: "
        let line = try await proxy.output.waitForLine(containing: prefix)
        let json = String(line.text[line.text.range(of: prefix)!.upperBound...])
        let report = try JSONObject.parse(Array(json.utf8))
        #expect(report["hostname"] as? String == "localhost", "\(report)")
        #expect(report["port"] as? Int == origin.port, "\(report)")
        let dateTime = try #require(report["date-time"] as? String, "\(report)")
        #expect(ISO8601DateFormatter().date(from: dateTime) != nil, "date-time \(dateTime)")
        #expect(report["include-subdomains"] as? Bool == false, "\(report)")
        #expect(report["noted-hostname"] as? String == "localhost", "\(report)")
        #expect(report["effective-expiration-date"] is String, "\(report)")
        let served = (report["served-certificate-chain"] as? [String]) ?? []
        #expect(served.count == 2 && served.allSatisfy { $0.contains("-----BEGIN CERTIFICATE-----") }, "\(served)")
        let rotatedPEM = try String(contentsOfFile: chain.path("rotated.pem"), encoding: .utf8)
        #expect(served.first.map { Self.sameCertificate($0, rotatedPEM) } == true, "served[0] is not the rotated leaf")
        let validated = (report["validated-certificate-chain"] as? [String]) ?? []
        #expect(validated.count == 3, "validated chain should end at the root: \(validated.count)")
        let known = (report["known-pins"] as? [String]) ?? []
        #expect(Set(known) == Set(["pin-sha256=\"\(chain.pin("leaf"))\"", "pin-sha256=\"\(chain.pin("backup"))\""]), "\(known)")

        let status = try await proxy.pinStatus("o")
        #expect((status["live"] as? [String: Any])?["failed"] as? Int == 1, "\(status)")
    }

    /// Two PEM texts hold the same certificate (whitespace aside).
    static func sameCertificate(_ a: String, _ b: String) -> Bool {
        func body(_ text: String) -> String { text.filter { !$0.isWhitespace } }
        return body(a) == body(b)
    }

    @Test func expiredPinSetBehavesAsUnpinnedAndWarnsOnEveryHandshake() async throws {
        let chain = try await TLSChainFactory.make()
        let origin = try await TLSOriginProcess.python(chain: chain.path("rotated-chain.pem"), key: chain.path("rotated.key"))
        let proxy = try await TLSProxy.start(TLSProxyConfig.root(
            listeners: [TLSProxyConfig.plainListener],
            upstreams: ["o": TLSProxyConfig.upstream(port: origin.port, caFile: chain.path("root.pem"),
                                                      pins: Self.pins([chain.pin("leaf"), chain.pin("backup")],
                                                                      extra: ["expires": "2020-01-01", "on_expiry": "unpinned"]),
                                                      maxIdle: 0)]))
        let load = try await proxy.output.waitForLine(containing: "expired")
        #expect(load.text.contains("upstreams.o.pins"), "load-time warning: \(load.text)")
        for index in 1...2 {
            let reply = try await TLSCurl.get(proxy.url("/expired/\(index)"))
            #expect(reply.status == 200 && reply.body.contains("/expired/\(index)"), "\(reply)")
        }
        #expect(origin.requests.count == 2, "\(origin.output.text)")
        #expect(origin.handshakes.count == 2, "pooling is off, two handshakes expected:\n\(origin.output.text)")
        let warning = "faultline: warning: upstream o: pin set expired on "
        try await Deadline.poll("two expiry warnings; output:\n\(proxy.output.text)", timeout: .seconds(5)) {
            proxy.output.lines.filter { $0.text.contains(warning) }.count >= 2 ? () : nil
        }
        let lines = proxy.output.lines.map(\.text).filter { $0.contains(warning) }
        #expect(lines.allSatisfy { $0.contains("behaving as unpinned") && $0.contains("2020-01-01") }, "\(lines)")
    }

    @Test func expiredPinSetWithOnExpiryEnforceKeepsEnforcing() async throws {
        let chain = try await TLSChainFactory.make()
        let origin = try await TLSOriginProcess.python(chain: chain.path("rotated-chain.pem"), key: chain.path("rotated.key"))
        let proxy = try await TLSProxy.start(TLSProxyConfig.root(
            listeners: [TLSProxyConfig.plainListener],
            upstreams: ["o": TLSProxyConfig.upstream(port: origin.port, caFile: chain.path("root.pem"),
                                                      pins: Self.pins([chain.pin("leaf"), chain.pin("backup")],
                                                                      extra: ["expires": "2020-01-01T00:00:00Z", "on_expiry": "enforce"]))]))
        let reply = try await TLSCurl.get(proxy.url("/blocked"))
        #expect(reply.status == 502 && reply.contentType.hasPrefix("application/json"), "\(reply)")
        #expect(reply.body.contains("pin mismatch"), "\(reply.body)")
        let warning = try await proxy.output.waitForLine(containing: "faultline: warning: upstream o: pin set expired on ")
        #expect(warning.text.contains("behaving as enforce"), "\(warning.text)")
        try await origin.output.waitForLine(containing: " open ")
        #expect(origin.requests.isEmpty, "\(origin.output.text)")
    }

    @Test func everyPinSpellingInTheConfigWorks() async throws {
        let chain = try await TLSChainFactory.make()
        let origin = try await TLSOriginProcess.python(chain: chain.path("chain.pem"), key: chain.path("leaf.key"))
        let leaf = chain.pin("leaf"), backup = chain.pin("backup")
        let spellings: [(name: String, pins: [String])] = [
            ("bare", [leaf, backup]),
            ("okhttp", ["sha256/" + leaf, "sha256/" + backup]),
            ("curl", ["sha256//" + leaf, "sha256//" + backup]),
            ("hpkp", ["pin-sha256=\"\(leaf)\"", "pin-sha256=\"\(backup)\""]),
            ("hpkpbare", ["pin-sha256=\(leaf)", backup]),
            ("mixed", ["sha256//" + backup, "pin-sha256=\"\(leaf)\""]),
        ]
        var upstreams: [String: [String: Any]] = [:]
        for spelling in spellings {
            upstreams[spelling.name] = TLSProxyConfig.upstream(port: origin.port, caFile: chain.path("root.pem"),
                                                               pins: Self.pins(spelling.pins))
        }
        let config = TLSProxyConfig.root(listeners: [TLSProxyConfig.plainListener], upstreams: upstreams,
                                         routes: spellings.map { Self.route("/\($0.name)/", $0.name) })
        let check = try TemporaryDirectory()
        let path = try check.write("faultline.json", TLSProxyConfig.json(config))
        let checked = try await FaultlineProcess.command(["check-config", path])
        #expect(checked.status == 0, "\(checked.output)")
        let proxy = try await TLSProxy.start(config)
        for spelling in spellings {
            let reply = try await TLSCurl.get(proxy.url("/\(spelling.name)/"))
            #expect(reply.status == 200, "\(spelling.name) \(spelling.pins): \(reply)")
        }
        #expect(origin.requests.count == spellings.count, "\(origin.output.text)")
        // A wrong pin in every spelling blocks: the spellings are parsed, not ignored.
        let other = chain.pin("rotated")
        let blocked = TLSProxyConfig.root(
            listeners: [TLSProxyConfig.plainListener],
            upstreams: ["o": TLSProxyConfig.upstream(port: origin.port, caFile: chain.path("root.pem"),
                                                      pins: Self.pins(["sha256//" + other, "pin-sha256=\"\(backup)\""]))])
        let blockedProxy = try await TLSProxy.start(blocked)
        let refused = try await TLSCurl.get(blockedProxy.url("/nope"))
        #expect(refused.status == 502 && refused.body.contains("pin mismatch"), "\(refused)")
    }

    @Test func hexFingerprintIsRefusedByCheckConfigWithTheExplanation() async throws {
        let chain = try await TLSChainFactory.make()
        let directory = try TemporaryDirectory()
        let colonless = chain.leafFingerprint.replacingOccurrences(of: ":", with: "").lowercased()
        for fingerprint in [chain.leafFingerprint, colonless, "sha256/" + chain.leafFingerprint] {
            let config = TLSProxyConfig.root(
                listeners: [TLSProxyConfig.plainListener],
                upstreams: ["o": TLSProxyConfig.upstream(port: 4443, caFile: chain.path("root.pem"),
                                                          pins: Self.pins([fingerprint, chain.pin("backup")]))])
            let path = try directory.write("hex.json", TLSProxyConfig.json(config))
            let result = try await FaultlineProcess.command(["check-config", path])
            #expect(result.status == 3, "\(fingerprint): \(result.output)")
            #expect(result.output.contains("upstreams.o.pins.sha256[0]"), "\(fingerprint): \(result.output)")
            #expect(result.output.lowercased().contains("fingerprint"), "\(fingerprint): \(result.output)")
            #expect(result.output.contains("openssl x509") || result.output.contains("pins compute"),
                    "the error should say how to get the SPKI pin: \(result.output)")
        }
    }

    @Test func checkConfigWarnsAboutASinglePinAndRefusesMissingCAFile() async throws {
        let chain = try await TLSChainFactory.make()
        let directory = try TemporaryDirectory()
        let single = TLSProxyConfig.root(
            listeners: [TLSProxyConfig.plainListener],
            upstreams: ["o": TLSProxyConfig.upstream(port: 4443, caFile: chain.path("root.pem"), pins: Self.pins([chain.pin("leaf")]))])
        let result = try await FaultlineProcess.command(["check-config", directory.write("single.json", TLSProxyConfig.json(single))])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("warning:") && result.output.contains("upstreams.o.pins.sha256"), "\(result.output)")

        let missing = TLSProxyConfig.root(
            listeners: [TLSProxyConfig.plainListener],
            upstreams: ["o": TLSProxyConfig.upstream(port: 4443, caFile: directory.path("no-such-ca.pem"),
                                                      pins: Self.pins([chain.pin("leaf"), chain.pin("backup")]))])
        let refused = try await FaultlineProcess.command(["check-config", directory.write("missing.json", TLSProxyConfig.json(missing))])
        #expect(refused.status == 3, "\(refused.output)")
        #expect(refused.output.contains("upstreams.o.trust.ca_file") && refused.output.contains("no-such-ca.pem"), "\(refused.output)")
    }
}
