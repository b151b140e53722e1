import Foundation
import Testing
@testable import FaultlineProxy
import FaultlineConfig
import FaultlineHTTP

/// The admin API's typed bodies: the config file's keys and shape, and the same bytes
/// JSONSerialization writes for that tree (sorted keys, indented, slashes as they are).
@Suite("Admin response bodies")
struct AdminBodyTests {
    private static let route = RouteConfig(
        name: "all-kinds",
        match: RouteMatch(host: .exact("api.example"), methods: ["GET", "POST"], path: .prefix("/v1/")),
        upstream: "demo",
        faults: [
            FaultSpec(name: "slow", kind: .delay(DelayFault(.fixed(ms: 250), phase: .firstByte)),
                      when: FaultCondition(probability: 0.25, firstN: 3, sequence: [.fire, .pass, .status(503)])),
            FaultSpec(name: "jitter", kind: .delay(DelayFault(.uniform(minMs: 10, maxMs: 20)))),
            FaultSpec(name: "tail", kind: .delay(DelayFault(.lognormal(medianMs: 40, sigma: 0.5, maxMs: 900))), enabled: false),
            FaultSpec(name: "down", kind: .status(StatusFault(
                code: 503, headers: [FaultHeader(name: "Retry-After", value: "5")], body: .text("{\"a\": \"b/c\"}"),
                contentType: "application/json"))),
            FaultSpec(name: "file", kind: .status(StatusFault(code: 500, body: .file("bodies/500.json"), upstream: true))),
            FaultSpec(name: "reset", kind: .reset(ResetFault(afterBytes: 10)), when: FaultCondition(everyNth: 2, activeForMs: 100)),
            FaultSpec(name: "close", kind: .close(CloseFault())),
            FaultSpec(name: "hang", kind: .hang(HangFault(ms: 50, then: .reset)), when: FaultCondition(afterN: 1, maxActive: 2)),
            FaultSpec(name: "hang-forever", kind: .hang(HangFault())),
            FaultSpec(name: "throttle", kind: .throttle(ThrottleFault(downBytesPerSecond: 1000))),
            FaultSpec(name: "truncate", kind: .truncate(TruncateFault(keepBytes: 3))),
            FaultSpec(name: "corrupt", kind: .corrupt(CorruptFault(mode: .malformedJSON))),
            FaultSpec(name: "rewrite", kind: .rewrite(RewriteFault(status: 418, addHeaders: [FaultHeader(name: "x-a", value: "1")],
                                                                   removeHeaders: ["server"]))),
            FaultSpec(name: "rewrite-bare", kind: .rewrite(RewriteFault())),
            FaultSpec(name: "3g", kind: .profile(.threeG)),
            FaultSpec(name: "refuse", kind: .rstStream(RSTStreamFault())),
            FaultSpec(name: "refuse-odd", kind: .rstStream(RSTStreamFault(errorCode: HTTP2ErrorCode(rawValue: 255)))),
            FaultSpec(name: "reset-calm", kind: .reset(ResetFault(afterBytes: 0, errorCode: .enhanceYourCalm))),
            FaultSpec(name: "drain", kind: .goAway(.graceful)),
            FaultSpec(name: "shutdown", kind: .goAway(.immediate(.http11Required))),
        ])

    private static let stats = [FaultStats(routeIndex: 0, routeName: "all-kinds", faultIndex: 0, faultName: "slow",
                                           matched: 4, fired: 2, active: 1)]

    private static var counters: [String: Any] {
        ["matched": 0, "fired": 0, "active": 0]
    }

    private static var expectedFaults: [[String: Any]] {
        [
            ["name": "slow", "enabled": true, "kind": "delay", "delay": ["phase": "first_byte", "ms": 250],
             "when": ["probability": 0.25, "first_n": 3, "sequence": [true, "pass", 503]],
             "stats": ["matched": 4, "fired": 2, "active": 1]],
            ["name": "jitter", "enabled": true, "kind": "delay", "delay": ["phase": "request", "uniform": ["min_ms": 10, "max_ms": 20]],
             "stats": counters],
            ["name": "tail", "enabled": false, "kind": "delay",
             "delay": ["phase": "request", "lognormal": ["median_ms": 40, "sigma": 0.5, "max_ms": 900]], "stats": counters],
            ["name": "down", "enabled": true, "kind": "status",
             "status": ["code": 503, "upstream": false, "headers": ["Retry-After": "5"], "content_type": "application/json",
                        "body": "{\"a\": \"b/c\"}"], "stats": counters],
            ["name": "file", "enabled": true, "kind": "status", "status": ["code": 500, "upstream": true, "body_file": "bodies/500.json"],
             "stats": counters],
            ["name": "reset", "enabled": true, "kind": "reset", "reset": ["after_bytes": 10, "error_code": "INTERNAL_ERROR"],
             "when": ["every_nth": 2, "active_for_ms": 100], "stats": counters],
            ["name": "close", "enabled": true, "kind": "close", "close": ["after_bytes": 0], "stats": counters],
            ["name": "hang", "enabled": true, "kind": "hang", "hang": ["then": "reset", "ms": 50],
             "when": ["after_n": 1, "max_active": 2], "stats": counters],
            ["name": "hang-forever", "enabled": true, "kind": "hang", "hang": ["then": "close"], "stats": counters],
            ["name": "throttle", "enabled": true, "kind": "throttle",
             "throttle": ["down_bytes_per_second": 1000, "up_bytes_per_second": 0, "chunk_bytes": 1024], "stats": counters],
            ["name": "truncate", "enabled": true, "kind": "truncate", "truncate": ["keep_bytes": 3], "stats": counters],
            ["name": "corrupt", "enabled": true, "kind": "corrupt", "corrupt": ["mode": "malformed_json"], "stats": counters],
            ["name": "rewrite", "enabled": true, "kind": "rewrite",
             "rewrite": ["status": 418, "add_headers": ["x-a": "1"], "remove_headers": ["server"]], "stats": counters],
            ["name": "rewrite-bare", "enabled": true, "kind": "rewrite", "rewrite": [String: Any](), "stats": counters],
            ["name": "3g", "enabled": true, "kind": "profile", "profile": "3g", "stats": counters],
            ["name": "refuse", "enabled": true, "kind": "rst_stream", "rst_stream": ["error_code": "REFUSED_STREAM"], "stats": counters],
            ["name": "refuse-odd", "enabled": true, "kind": "rst_stream", "rst_stream": ["error_code": 255], "stats": counters],
            ["name": "reset-calm", "enabled": true, "kind": "reset", "reset": ["after_bytes": 0, "error_code": "ENHANCE_YOUR_CALM"],
             "stats": counters],
            ["name": "drain", "enabled": true, "kind": "goaway", "goaway": ["mode": "graceful"], "stats": counters],
            ["name": "shutdown", "enabled": true, "kind": "goaway", "goaway": ["mode": "immediate", "error_code": "HTTP_1_1_REQUIRED"],
             "stats": counters],
        ]
    }

    /// Equal trees: compared as canonical JSON, since a parsed `true` and a Swift `true`
    /// are different objects to Foundation.
    private func same(_ object: [String: Any], _ expected: [String: Any]) -> Bool {
        let canonical = { (tree: [String: Any]) in try? JSONSerialization.data(withJSONObject: tree, options: [.sortedKeys]) }
        return canonical(object) != nil && canonical(object) == canonical(expected)
    }

    private func parsed(_ response: AdminResponse) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(response.body))
    }

    /// The body is what JSONSerialization writes for the same tree, byte for byte.
    private func expectSameBytesAsSerialization(_ response: AdminResponse) throws {
        let tree = try parsed(response)
        let reference = try JSONSerialization.data(withJSONObject: tree, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
        #expect(String(decoding: response.body, as: UTF8.self) == String(decoding: reference, as: UTF8.self) + "\n")
    }

    @Test func ruleHasTheConfigFileShape() throws {
        let response = AdminResponse.json(200, RuleJSON(Self.route, source: "runtime", enabled: true, stats: Self.stats))
        let object = try #require(try parsed(response) as? [String: Any])
        let expected: [String: Any] = [
            "name": "all-kinds", "upstream": "demo", "source": "runtime", "enabled": true,
            "match": ["host": "api.example", "methods": ["GET", "POST"], "path_prefix": "/v1/"],
            "faults": Self.expectedFaults,
        ]
        #expect(same(object, expected), "\(object)")
        try expectSameBytesAsSerialization(response)
    }

    @Test func emptyMatchAndNoFaults() throws {
        let route = RouteConfig(name: "plain", match: RouteMatch(path: .glob("/a/*/b")), upstream: "u")
        let response = AdminResponse.json(201, RuleJSON(route, source: "file", enabled: false, stats: []))
        let object = try #require(try parsed(response) as? [String: Any])
        let expected: [String: Any] = ["name": "plain", "upstream": "u", "source": "file", "enabled": false,
                                       "match": ["path_glob": "/a/*/b"], "faults": [Any]()]
        #expect(same(object, expected), "\(object)")
        #expect(response.status == 201)
        let everything = AdminResponse.json(200, RouteMatchJSON(RouteMatch()))
        #expect(String(decoding: everything.body, as: UTF8.self) == "{\n\n}\n")
    }

    @Test func refusalListsEveryProblemOnlyWhenThereAreSome() throws {
        let bare = AdminRefusal(404, "no rule named \"x\"").response
        #expect(bare.status == 404)
        let bareObject = try #require(try parsed(bare) as? [String: Any])
        #expect(same(bareObject, ["error": "no rule named \"x\""]))
        let invalid = AdminRefusal(invalid: ConfigErrors(errors: [ConfigError(path: "rule.faults[0].status.code", message: "must be 100...599"),
                                                                  ConfigError(path: "rule.upstream", message: "unknown upstream")], file: nil))
        let object = try #require(try parsed(invalid.response) as? [String: Any])
        #expect(object["field"] as? String == "rule.faults[0].status.code")
        let errors = try #require(object["errors"] as? [[String: String]])
        #expect(errors.map { $0["field"] } == ["rule.faults[0].status.code", "rule.upstream"])
        #expect(errors.map { $0["message"] } == ["must be 100...599", "unknown upstream"])
        #expect(Set(object.keys) == ["error", "field", "errors"])
        try expectSameBytesAsSerialization(invalid.response)
    }

    @Test func endpointBodies() throws {
        let health = try #require(try parsed(.json(200, AdminBody.Health(status: "ok", configGeneration: 3, connections: 2))) as? [String: Any])
        #expect(same(health, ["status": "ok", "config_generation": 3, "connections": 2]))
        let reset = try #require(try parsed(.json(200, AdminBody.Reset(reset: true, configGeneration: 4))) as? [String: Any])
        #expect(same(reset, ["reset": true, "config_generation": 4]))
        let off = try #require(try parsed(.json(200, AdminBody.LogStatus(
            log: AdminBody.Sink(enabled: false), har: AdminBody.Capture(enabled: true, entries: 5, evicted: 1)))) as? [String: Any])
        #expect(same(off, ["log": ["enabled": false], "har": ["enabled": true, "entries": 5, "evicted": 1]]))
        let sink = AdminBody.Sink(enabled: true, dropped: 1, failedWrites: 2, lastWriteErrno: 28, destination: "file", path: "/var/log/f.log")
        let on = try #require(try parsed(.json(200, sink)) as? [String: Any])
        #expect(same(on, ["enabled": true, "dropped": 1, "failed_writes": 2, "last_write_errno": 28,
                                                          "destination": "file", "path": "/var/log/f.log"]))
        let error = AdminResponse.error(421, "wrong host")
        #expect(String(decoding: error.body, as: UTF8.self) == "{\n  \"error\" : \"wrong host\"\n}\n")
    }

    @Test func statsKeepTheSeedAsText() throws {
        let http2 = HTTP2Counters.Counts(connectionsAccepted: 1, streamsOpened: 7, streamsResetByFaultline: 2,
                                         streamsResetByClient: 3, goawaysSent: 4)
        let stats = AdminBody.Stats(configGeneration: 1, seed: String(UInt64.max), rules: [
            AdminBody.RuleCounters(name: "r", source: "file", enabled: true, fired: 2, faults: [
                AdminBody.FaultCounters(name: "f", kind: "status", enabled: true, matched: 3, fired: 2, active: 0),
            ]),
        ], http2: http2)
        let response = AdminResponse.json(200, stats)
        let object = try #require(try parsed(response) as? [String: Any])
        #expect(object["seed"] as? String == "18446744073709551615")
        let expected: [String: Any] = [
            "config_generation": 1, "seed": "18446744073709551615",
            "rules": [["name": "r", "source": "file", "enabled": true, "fired": 2,
                       "faults": [["name": "f", "kind": "status", "enabled": true, "matched": 3, "fired": 2, "active": 0]]]],
            "http2": ["connections_accepted": 1, "streams_opened": 7, "streams_reset_by_faultline": 2,
                      "streams_reset_by_client": 3, "goaways_sent": 4],
        ]
        #expect(same(object, expected))
        try expectSameBytesAsSerialization(response)
    }
}
