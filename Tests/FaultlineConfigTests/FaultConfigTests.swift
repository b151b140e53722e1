import FaultlineTestSupport
import Foundation
import Testing
@testable import FaultlineConfig

@Suite("Fault config parsing")
struct FaultConfigTests {
    @Test func everyKindAndShorthand() throws {
        let faults = try loadFaults(#"""
        [{"delay": {"ms": 200}},
         {"delay": {"uniform": {"min_ms": 100, "max_ms": 300}, "phase": "first_byte"}},
         {"delay": {"lognormal": {"median_ms": 200, "sigma": 0.5, "max_ms": 5000}}},
         {"delay": 50},
         {"status": {"code": 503, "headers": {"Retry-After": "5", "X-N": 7}, "body": "<p>x</p>", "content_type": "text/html", "upstream": true}},
         {"status": 429, "name": "limited", "enabled": false},
         {"reset": {"after_bytes": 10}}, {"close": {}}, {"hang": {"ms": 30000, "then": "reset"}}, {"hang": {}},
         {"throttle": {"down_bytes_per_second": 100000}},
         {"truncate": {"keep_bytes": 100}}, {"corrupt": {"mode": "bad_chunk_framing"}},
         {"rewrite": {"status": 500, "add_headers": {"X": "y"}, "remove_headers": ["ETag"]}},
         {"profile": "3g"}, {"profile": "very-bad"}, {"profile": "100-loss"}]
        """#)
        #expect(faults.map(\.kind) == [
            .delay(DelayFault(.fixed(ms: 200))),
            .delay(DelayFault(.uniform(minMs: 100, maxMs: 300), phase: .firstByte)),
            .delay(DelayFault(.lognormal(medianMs: 200, sigma: 0.5, maxMs: 5000))),
            .delay(DelayFault(.fixed(ms: 50))),
            .status(StatusFault(
                code: 503, headers: [FaultHeader(name: "Retry-After", value: "5"), FaultHeader(name: "X-N", value: "7")],
                body: .text("<p>x</p>"), contentType: "text/html", upstream: true)),
            .status(StatusFault(code: 429)),
            .reset(ResetFault(afterBytes: 10)), .close(CloseFault()), .hang(HangFault(ms: 30000, then: .reset)), .hang(HangFault()),
            .throttle(ThrottleFault(downBytesPerSecond: 100_000)),
            .truncate(TruncateFault(keepBytes: 100)), .corrupt(CorruptFault(mode: .badChunkFraming)),
            .rewrite(RewriteFault(status: 500, addHeaders: [FaultHeader(name: "X", value: "y")], removeHeaders: ["ETag"])),
            .profile(.threeG), .profile(.veryBad), .profile(.totalLoss),
        ])
        #expect(faults.map(\.name) == [
            "delay", "delay-2", "delay-3", "delay-4", "status", "limited", "reset", "close", "hang", "hang-2",
            "throttle", "truncate", "corrupt", "rewrite", "profile", "profile-2", "profile-3",
        ])
        #expect(faults[5].enabled == false)
        #expect(faults.filter { !$0.enabled }.count == 1)
        #expect(NetworkProfile.threeG == NetworkProfile(name: "3g", latencyMs: 100, downBps: 97_500, upBps: 41_250, lossRate: 0))
    }

    @Test func conditionAndDefaults() throws {
        let faults = try loadFaults(#"""
        [{"status": 503, "when": {"probability": 0.3, "first_n": 3, "after_n": 1, "every_nth": 2,
                                   "sequence": [503, 502, "pass", true, false], "active_for_ms": 60000, "max_active": 2}},
         {"reset": {}, "when": {"sequence": [true, "pass", false]}}]
        """#)
        #expect(faults[0].when == FaultCondition(
            probability: 0.3, firstN: 3, afterN: 1, everyNth: 2,
            sequence: [.status(503), .status(502), .pass, .fire, .pass], activeForMs: 60000, maxActive: 2))
        #expect(faults[1].when.sequence == [.fire, .pass, .pass])
        #expect(faults[1].kind == .reset(ResetFault(afterBytes: 0)))
        let lognormal = try loadFaults(#"[{"delay": {"lognormal": {"median_ms": 200, "sigma": 1}}}]"#)
        #expect(lognormal[0].kind == .delay(DelayFault(.lognormal(medianMs: 200, sigma: 1, maxMs: 2000))))
    }

    @Test func faultHeaders() throws {
        let plain = try ConfigLoader.parse(Data(withFaults("[]").utf8), file: nil)
        #expect(plain.faultHeaders == FaultHeadersConfig(enabled: false, delayHeader: "x-faultline-delay-ms", statusHeader: "x-faultline-status"))
        let on = try ConfigLoader.parse(Data(withFaults("[]", top: #""fault_headers": {"enabled": true, "status_header": "x-status"}"#).utf8), file: nil)
        #expect(on.faultHeaders == FaultHeadersConfig(enabled: true, statusHeader: "x-status"))
    }

    @Test func bodyFileIsResolvedAndChecked() throws {
        let directory = try TemporaryDirectory(placeholders: ["pages/oops.html"])
        defer { directory.remove() }
        let path = try directory.writeConfig(withFaults(#"[{"status": {"code": 500, "body_file": "pages/oops.html"}}]"#))
        let config = try ConfigLoader.load(path: path)
        #expect(config.routes[0].faults[0].kind == .status(StatusFault(code: 500, body: .file(directory.path("pages/oops.html")))))
        let missing = try directory.writeConfig(withFaults(#"[{"status": {"code": 500, "body_file": "nope.html"}}]"#), as: "b.json")
        #expect(throws: ConfigErrors.self) { try ConfigLoader.load(path: missing) }
        do {
            _ = try ConfigLoader.load(path: missing)
        } catch {
            #expect(error.errors.map(\.description) == [#"routes[0].faults[0].status.body_file: cannot read "nope.html": No such file or directory"#])
        }
    }

    @Test func docsFaultExampleLoads() throws {
        let docs = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/config.md"), encoding: .utf8)
        let blocks = docs.components(separatedBy: "```json\n").dropFirst()
        let example = try #require(blocks.first { $0.contains("\"faults\"") }?.components(separatedBy: "```").first)
        let config = try ConfigLoader.parse(Data(example.utf8), file: "docs/config.md", checkFiles: false)
        #expect(config.routes.contains { !$0.faults.isEmpty })
        #expect(config.seed == 42)
    }

    @Test func schemaAndDocsCoverFaultKeys() throws {
        let data = try Data(contentsOf: repositoryRoot.appendingPathComponent("config/faultline.schema.json"))
        let schema = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let defs = try #require(schema["$defs"] as? [String: Any])
        func keys(_ name: String) -> Set<String> {
            Set((((defs[name] as? [String: Any])?["properties"]) as? [String: Any])?.keys.map { $0 } ?? [])
        }
        let pairs: [(String, [String])] = [
            ("fault", FaultConfigKeys.fault), ("faultWhen", FaultConfigKeys.when), ("faultDelay", FaultConfigKeys.delay),
            ("faultDelayUniform", FaultConfigKeys.uniform), ("faultDelayLognormal", FaultConfigKeys.lognormal),
            ("faultStatus", FaultConfigKeys.status), ("faultReset", FaultConfigKeys.reset), ("faultClose", FaultConfigKeys.close),
            ("faultHang", FaultConfigKeys.hang), ("faultThrottle", FaultConfigKeys.throttle),
            ("faultTruncate", FaultConfigKeys.truncate), ("faultCorrupt", FaultConfigKeys.corrupt),
            ("faultRewrite", FaultConfigKeys.rewrite), ("faultHeaders", FaultConfigKeys.faultHeaders),
            ("faultRstStream", FaultConfigKeys.rstStream), ("faultGoAway", FaultConfigKeys.goAway),
        ]
        for (name, known) in pairs {
            #expect(keys(name) == Set(known), "$defs.\(name)")
            #expect((defs[name] as? [String: Any])?["additionalProperties"] as? Bool == false, "$defs.\(name)")
        }
        let docs = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/config.md"), encoding: .utf8)
        let all = pairs.flatMap(\.1)
        let missing = Set(all).filter { !docs.contains("`\($0)`") && !docs.contains(".\($0)`") }
        #expect(missing.isEmpty, "docs/config.md does not document \(missing.sorted())")
    }
}
