import Foundation
import Testing
import FaultlineTestSupport

/// Upstream pins taken from an app's own pin configuration (`pins.app`), through the real
/// binary: chains minted with the openssl CLI, the platform's rules applied to the verified
/// chain, nothing forwarded on a FAIL, bad files refused at load, files re-read on reload.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct AppPinUpstreamTests {
    static func route(_ prefix: String, _ upstream: String) -> [String: Any] {
        ["name": upstream, "match": ["path_prefix": prefix], "upstream": upstream]
    }

    /// A config file in `directory` with one https upstream `o` to `port` whose pins are `pins`.
    static func configFile(_ directory: TemporaryDirectory, port: Int, chain: TLSChain, pins: [String: Any],
                           serverName: String? = nil, host: String = "localhost") throws -> String {
        let upstream = TLSProxyConfig.upstream(port: port, caFile: chain.path("root.pem"), host: host, serverName: serverName,
                                               pins: pins)
        let config = TLSProxyConfig.root(listeners: [TLSProxyConfig.plainListener], upstreams: ["o": upstream], admin: false)
        return try directory.write("faultline.json", TLSProxyConfig.json(config))
    }

    @Test func atsLeafOnlyPinPassesWithTheLeafAndRefusesARotatedLeafKeyForwardingNothing() async throws {
        let chain = try await TLSChainFactory.make()
        let files = try TemporaryDirectory()
        let current = try files.write("Info.plist", AppPinFiles.ats(domain: "localhost", leaf: [chain.pin("leaf"), chain.pin("backup")]))
        let next = try files.write("Info-next.plist", AppPinFiles.ats(domain: "localhost", leaf: [chain.pin("rotated"), chain.pin("backup")]))
        let old = try await TLSOriginProcess.python(chain: chain.path("chain.pem"), key: chain.path("leaf.key"))
        defer { old.kill() }
        // The rotated origin speaks h2 and counts every application byte it receives.
        let rotated = try await ByteCountingTLSOrigin.start(chain: chain.path("rotated-chain.pem"), key: chain.path("rotated.key"))
        defer { rotated.kill() }
        let pins: [String: Any] = ["app": current, "mode": "enforce", "candidate": ["app": next]]
        var rotatedUpstream = TLSProxyConfig.upstream(port: rotated.port, caFile: chain.path("root.pem"), pins: pins)
        rotatedUpstream["protocol"] = "h2"
        var config = TLSProxyConfig.root(
            listeners: [TLSProxyConfig.plainListener],
            upstreams: ["current": TLSProxyConfig.upstream(port: old.port, caFile: chain.path("root.pem"), pins: pins),
                        "rotated": rotatedUpstream],
            routes: [Self.route("/current", "current"), Self.route("/rotated", "rotated")])
        config["log"] = ["format": "json", "destination": "file", "path": "traffic.log"]
        let proxy = try await TLSProxy.start(config)
        defer { proxy.kill() }

        let passed = try await TLSCurl.get(proxy.url("/current/a"))
        #expect(passed.status == 200 && passed.body.contains("/current/a"), "\(passed)")

        let refused = try await TLSCurl.get(proxy.url("/rotated/secret"))
        #expect(refused.status == 502 && refused.contentType.hasPrefix("application/json"), "\(refused)")
        let body = try JSONObject.parse(Array(refused.body.utf8))
        #expect(body["error"] as? String == "pin mismatch", "\(body)")
        #expect(body["platform"] as? String == "ats" && body["app"] as? String == current && body["domain"] as? String == "localhost",
                "\(body)")
        #expect(body["entry"] as? String == "NSAppTransportSecurity.NSPinnedDomains[\"localhost\"]", "\(body)")
        let reason = body["reason"] as? String ?? ""
        #expect(reason.hasPrefix("FAIL: pins only leaf keys; the chain's leaf key is not among them"), "\(reason)")
        #expect(Set(body["expected_pins"] as? [String] ?? []) == ["sha256/" + chain.pin("leaf"), "sha256/" + chain.pin("backup")],
                "\(body)")
        let observed = (body["observed_chain"] as? [[String: Any]]) ?? []
        #expect(observed.map { $0["pin"] as? String } == ["sha256/" + chain.pin("rotated"), "sha256/" + chain.pin("int"),
                                                         "sha256/" + chain.pin("root")], "the verified chain, root included: \(observed)")
        // The handshake completed, then the connection closed: not one byte reached the origin.
        _ = try await rotated.output.waitForLine(containing: "conn 1 received", timeout: .seconds(5))
        let lines = rotated.output.lines.map(\.text).filter { $0.hasPrefix("conn ") }
        #expect(lines == ["conn 1 open h2", "conn 1 received 0"], "\(rotated.output.text)")

        // GET /pins: the rule that matched which certificate; the next app release in shadow.
        let currentStatus = try await proxy.pinStatus("current")
        #expect((currentStatus["live"] as? [String: Any])?["passed"] as? Int == 1, "\(currentStatus)")
        let verdict = currentStatus["last_verdict"] as? String ?? ""
        #expect(verdict == "PASS: the leaf key is pinned (ATS NSAppTransportSecurity.NSPinnedDomains[\"localhost\"] in \(current))",
                "\(currentStatus)")
        #expect(currentStatus["last_matches"] as? [String] == [verdict], "\(currentStatus)")
        #expect((currentStatus["candidate"] as? [String: Any])?["failed"] as? Int == 1, "\(currentStatus)")
        #expect((currentStatus["last_candidate_verdict"] as? String ?? "").hasPrefix("FAIL: pins only leaf keys"), "\(currentStatus)")
        let rotatedStatus = try await proxy.pinStatus("rotated")
        #expect((rotatedStatus["live"] as? [String: Any])?["failed"] as? Int == 1, "\(rotatedStatus)")
        let candidate = rotatedStatus["candidate"] as? [String: Any]
        #expect(candidate?["passed"] as? Int == 1 && candidate?["ready"] as? Bool == true, "\(rotatedStatus)")
        #expect((rotatedStatus["last_live_failure"] as? [String: Any])?["verdict"] as? String == reason, "\(rotatedStatus)")

        // The pin records carry the evaluator's verdict as their message.
        let path = proxy.directory.path("traffic.log")
        let records = try await Deadline.poll("two pin records in \(path)", timeout: .seconds(10)) { () -> [[String: Any]]? in
            let pinRecords = LogFile.records(path).filter { $0.kind == "pin" && $0["faultline.pin.result"] as? String != "warning" }
            return pinRecords.count >= 2 ? pinRecords : nil
        }
        let mismatch = try #require(records.first { $0["faultline.pin.result"] as? String == "mismatch" }, "\(records)")
        #expect(mismatch["faultline.message"] as? String == reason, "\(mismatch)")
        #expect(mismatch["faultline.pin.app_platform"] as? String == "ats", "\(mismatch)")
        let match = try #require(records.first { $0["faultline.pin.result"] as? String == "match" }, "\(records)")
        #expect(match["faultline.message"] as? String == verdict, "\(match)")
    }

    @Test func androidPinsAfterTheirExpirationAreNotEnforced() async throws {
        let chain = try await TLSChainFactory.make()
        let files = try TemporaryDirectory()
        // Only the backup key is pinned: the served chain matches no pin.
        let expired = try files.write("expired.xml", AppPinFiles.android(domain: "localhost", pins: [chain.pin("backup")],
                                                                        expiration: "2020-01-01"))
        let valid = try files.write("valid.xml", AppPinFiles.android(domain: "localhost", pins: [chain.pin("backup")],
                                                                      expiration: "2099-01-01"))
        let intermediate = try files.write("intermediate.xml", AppPinFiles.android(domain: "localhost", pins: [chain.pin("int")]))
        let origin = try await TLSOriginProcess.python(chain: chain.path("chain.pem"), key: chain.path("leaf.key"))
        defer { origin.kill() }
        func upstream(_ file: String) -> [String: Any] {
            TLSProxyConfig.upstream(port: origin.port, caFile: chain.path("root.pem"), pins: ["app": file], maxIdle: 0)
        }
        let proxy = try await TLSProxy.start(TLSProxyConfig.root(
            listeners: [TLSProxyConfig.plainListener],
            upstreams: ["expired": upstream(expired), "valid": upstream(valid), "int": upstream(intermediate)],
            routes: [Self.route("/expired", "expired"), Self.route("/valid", "valid"), Self.route("/int", "int")]))
        defer { proxy.kill() }
        let warning = try await proxy.output.waitForLine(containing: "the pin-set expired on 2020-01-01")
        #expect(warning.text.contains("faultline: warning: upstream expired: upstreams.expired.pins.app: \(expired): ")
                && warning.text.contains("NOT PINNED"), "\(warning.text)")

        let forwarded = try await TLSCurl.get(proxy.url("/expired/a"))
        #expect(forwarded.status == 200 && forwarded.body.contains("/expired/a"), "\(forwarded)")
        let status = try await proxy.pinStatus("expired")
        #expect((status["last_verdict"] as? String ?? "").hasPrefix("NOT PINNED: the pin-set expired on 2020-01-01"), "\(status)")
        #expect(status["expired_handshakes"] as? Int == 1, "\(status)")
        let live = status["live"] as? [String: Any]
        #expect(live?["passed"] as? Int == 0 && live?["failed"] as? Int == 0, "NOT PINNED counts in neither: \(status)")

        let refused = try await TLSCurl.get(proxy.url("/valid/b"))
        #expect(refused.status == 502 && refused.body.contains("pin mismatch"), "\(refused)")
        let body = try JSONObject.parse(Array(refused.body.utf8))
        #expect((body["reason"] as? String ?? "").hasPrefix("FAIL: the pinned key is not in the verified chain"), "\(body)")

        let matched = try await TLSCurl.get(proxy.url("/int/c"))
        #expect(matched.status == 200, "\(matched)")
        let intStatus = try await proxy.pinStatus("int")
        #expect((intStatus["last_verdict"] as? String ?? "").hasPrefix("PASS: the intermediate CN=Faultline Test Intermediate key is pinned"),
                "\(intStatus)")
        #expect(origin.requests.count == 2, "only /expired and /int were forwarded:\n\(origin.output.text)")
    }

    @Test func okHttpOneLabelWildcardDiffersFromAnyDepthForTheUpstreamName() async throws {
        let chain = try await TLSChainFactory.make()
        let files = try TemporaryDirectory()
        let api = chain.pin("api")
        let anyDepth = try files.write("Pinning.kt", AppPinFiles.okHttpKotlin([("**.api.test", [api, chain.pin("backup")])]))
        let oneLabel = try files.write("one-label.txt", AppPinFiles.okHttpList([("*.test", [api, chain.pin("backup")])]))
        let tooDeep = try files.write("too-deep.txt", AppPinFiles.okHttpList([("*.api.test", [api, chain.pin("backup")])]))
        let origin = try await TLSOriginProcess.python(chain: chain.path("api-chain.pem"), key: chain.path("api.key"))
        defer { origin.kill() }

        // `*.api.test` does not cover api.test itself: the proxy refuses to load rather than pin nothing.
        let directory = try TemporaryDirectory()
        let refusedPath = try Self.configFile(directory, port: origin.port, chain: chain, pins: ["app": tooDeep],
                                              serverName: "api.test", host: "127.0.0.1")
        let checked = try await FaultlineProcess.command(["check-config", refusedPath])
        #expect(checked.status == 3, "\(checked.output)")
        #expect(checked.output.contains("upstreams.o.pins.app: \(tooDeep): no CertificatePinner pattern matches api.test "
                                        + "(*.api.test matches exactly one label below api.test; **.api.test would cover api.test)"),
                "\(checked.output)")

        // `**.api.test` and `*.test` both cover api.test (the upstream's server name, the default domain).
        func upstream(_ file: String) -> [String: Any] {
            TLSProxyConfig.upstream(port: origin.port, caFile: chain.path("root.pem"), host: "127.0.0.1", serverName: "api.test",
                                    pins: ["app": file])
        }
        let proxy = try await TLSProxy.start(TLSProxyConfig.root(
            listeners: [TLSProxyConfig.plainListener],
            upstreams: ["deep": upstream(anyDepth), "one": upstream(oneLabel)],
            routes: [Self.route("/deep", "deep"), Self.route("/one", "one")]))
        defer { proxy.kill() }
        for name in ["deep", "one"] {
            let reply = try await TLSCurl.get(proxy.url("/\(name)/x"))
            #expect(reply.status == 200, "\(name): \(reply)")
            let status = try await proxy.pinStatus(name)
            #expect((status["last_verdict"] as? String ?? "").hasPrefix("PASS: the leaf CN=api.test key is pinned (OkHttp"), "\(status)")
        }
        // A deeper name is beyond `*.test` but within `**.api.test`.
        let deep = try Self.configFile(directory, port: origin.port, chain: chain,
                                       pins: ["app": oneLabel, "domain": "v2.api.test"], serverName: "api.test", host: "127.0.0.1")
        let deepChecked = try await FaultlineProcess.command(["check-config", deep])
        #expect(deepChecked.status == 3 && deepChecked.output.contains("no CertificatePinner pattern matches v2.api.test"),
                "\(deepChecked.output)")
        let anyChecked = try await FaultlineProcess.command(["check-config", try Self.configFile(
            directory, port: origin.port, chain: chain, pins: ["app": anyDepth, "domain": "v2.api.test"], serverName: "api.test",
            host: "127.0.0.1")])
        #expect(anyChecked.status == 0, "\(anyChecked.output)")
    }

    @Test func aBadAppFileIsRefusedAtLoadWithTheKeyPathAndLine() async throws {
        let chain = try await TLSChainFactory.make()
        let files = try TemporaryDirectory()
        let bad = try files.write("Info.plist", AppPinFiles.ats(domain: "localhost", leaf: ["not-a-pin"]))
        let other = try files.write("Other.plist", AppPinFiles.ats(domain: "api.example.com", leaf: [chain.pin("leaf")]))
        let directory = try TemporaryDirectory()
        let cases: [(pins: [String: Any], expected: String)] = [
            (["app": bad], "upstreams.o.pins.app: \(bad): NSAppTransportSecurity.NSPinnedDomains[\"localhost\"]"
                + ".NSPinnedLeafIdentities[0].SPKI-SHA256-BASE64: not base64 of 32 bytes (line 15)"),
            (["app": other], "upstreams.o.pins.app: \(other): no NSPinnedDomains entry covers localhost "
                + "(entries: NSAppTransportSecurity.NSPinnedDomains[\"api.example.com\"] (line 10))"),
            (["app": files.path("missing.plist")], "upstreams.o.pins.app: cannot read"),
            (["app": other, "sha256": [chain.pin("leaf")]], "upstreams.o.pins.sha256: not with app"),
            (["app": other, "domain": "api.example.com", "build": "debuggable"],
             "upstreams.o.pins.build: applies to Android configurations only"),
        ]
        for (index, item) in cases.enumerated() {
            let path = try Self.configFile(directory, port: 9, chain: chain, pins: item.pins)
            let checked = try await FaultlineProcess.command(["check-config", path])
            #expect(checked.status == 3 && checked.output.contains(item.expected), "case \(index): \(checked.output)")
            if index == 0 {
                // `run` refuses the same file with the same message, before listening.
                let run = try await FaultlineProcess.command(["run", "--config", path], timeout: .seconds(20))
                #expect(run.status == 3 && run.output.contains(item.expected), "\(run.output)")
            }
        }
    }

    @Test func sighupRereadsAChangedAppFile() async throws {
        let chain = try await TLSChainFactory.make()
        let files = try TemporaryDirectory()
        let plist = try files.write("Info.plist", AppPinFiles.ats(domain: "localhost", leaf: [chain.pin("leaf"), chain.pin("backup")]))
        let origin = try await TLSOriginProcess.python(chain: chain.path("chain.pem"), key: chain.path("leaf.key"))
        defer { origin.kill() }
        let proxy = try await TLSProxy.start(TLSProxyConfig.root(
            listeners: [TLSProxyConfig.plainListener],
            upstreams: ["o": TLSProxyConfig.upstream(port: origin.port, caFile: chain.path("root.pem"), pins: ["app": plist],
                                                      maxIdle: 0)]))
        defer { proxy.kill() }
        #expect(try await TLSCurl.get(proxy.url("/before")).status == 200)

        // The next release pins only the rotated leaf: after SIGHUP the current chain fails.
        _ = try files.write("Info.plist", AppPinFiles.ats(domain: "localhost", leaf: [chain.pin("rotated"), chain.pin("backup")]))
        var seen = proxy.output.lines.count
        proxy.process.signal(SIGHUP)
        _ = try await proxy.output.waitForLine(containing: "configuration reloaded", after: seen)
        let refused = try await TLSCurl.get(proxy.url("/after"))
        #expect(refused.status == 502 && refused.body.contains("pins only leaf keys"), "\(refused)")

        // A broken file is refused on reload; the previous rules stay.
        _ = try files.write("Info.plist", "<plist><dict><key>NSAppTransportSecurity</key>")
        seen = proxy.output.lines.count
        proxy.process.signal(SIGHUP)
        let refusal = try await proxy.output.waitForLine(containing: "upstreams.o.pins.app", after: seen)
        #expect(proxy.output.text.contains("reload refused"), "\(proxy.output.text)")
        #expect(refusal.text.contains(plist), "\(refusal.text)")
        #expect(try await TLSCurl.get(proxy.url("/still")).status == 502)

        _ = try files.write("Info.plist", AppPinFiles.ats(domain: "localhost", leaf: [chain.pin("leaf"), chain.pin("backup")]))
        seen = proxy.output.lines.count
        proxy.process.signal(SIGHUP)
        _ = try await proxy.output.waitForLine(containing: "configuration reloaded", after: seen)
        #expect(try await TLSCurl.get(proxy.url("/again")).status == 200)
        let requests = origin.requests
        #expect(requests.count == 2 && requests.allSatisfy { !$0.contains("/after") && !$0.contains("/still") }, "\(requests)")
    }
}
