import Foundation
import Testing
@testable import FaultlineTesting

/// The builders' JSON, compared literally with what the config file says (keys sorted).
@Suite("Rule and fault encoding")
struct RuleEncodingTests {
    @Test func retryOutageEncodesAsTheConfigExample() {
        let rule = Rule.pathPrefix("/search").named("search-outage").upstream("staging")
            .fault(.status(503, retryAfter: 1).named("retry-me").sequence([503, 503, .pass]))
        #expect(rule.jsonText == #"{"faults":[{"name":"retry-me","status":{"code":503,"headers":{"Retry-After":"1"}},"when":{"sequence":[503,503,"pass"]}}],"match":{"path_prefix":"/search"},"name":"search-outage","upstream":"staging"}"#)
    }

    @Test func matchFieldsAndRoutingOnlyRule() {
        let rule = Rule.pathGlob("/api/v?/*.json").methods("GET", "HEAD").host("*.example.com")
        #expect(rule.jsonText == #"{"match":{"host":"*.example.com","methods":["GET","HEAD"],"path_glob":"/api/v?/*.json"}}"#)
        #expect(Rule.any.jsonText == "{}")
        #expect(Rule.path("/users").jsonText == #"{"match":{"path":"/users"}}"#)
    }

    @Test func requestConditionBuildersEncodeAsTheConfigKeys() {
        let rule = Rule.pathPrefix("/api").header("X-Test", "1").header("authorization", present: false)
            .query("mode", "fail*").query("debug", present: true).cookie("session", "abc").cookie("beta", present: false)
            .client("127.0.0.0/8", "::1").not(.any.header("x-canary", present: true))
        #expect(rule.jsonText == #"{"match":{"client":["127.0.0.0/8","::1"],"cookies":{"beta":false,"session":"abc"},"headers":{"authorization":false,"x-test":"1"},"not":{"headers":{"x-canary":true}},"path_prefix":"/api","query":{"debug":true,"mode":"fail*"}}}"#)
    }

    @Test func jsonBuildersEncodeAsTheConfigKey() {
        let rule = Rule.path("/orders").json("/user/tier", "gold").json("/items/0/sku", "A*").json("/debug", present: false)
            .not(.any.json("/test", present: true))
        #expect(rule.jsonText == #"{"match":{"json":{"/debug":false,"/items/0/sku":"A*","/user/tier":"gold"},"not":{"json":{"/test":true}},"path":"/orders"}}"#)
    }

    @Test func statusWithBodyAndHeaders() {
        let fault = Fault.status(500, body: "<html>Oops</html>", contentType: "text/html", headers: ["X-A": "1"])
        #expect(fault.jsonText == #"{"status":{"body":"<html>Oops</html>","code":500,"content_type":"text/html","headers":{"X-A":"1"}}}"#)
        #expect(Fault.status(502, callUpstream: true).jsonText == #"{"status":{"code":502,"upstream":true}}"#)
    }

    @Test func everyConditionEncodesUnderWhen() {
        let fault = Fault.delay(ms: 200).firstN(3).afterN(1).everyNth(2).probability(0.5)
            .activeFor(.seconds(2)).maxActive(4).sequence([.fire, .pass]).disabled()
        #expect(fault.jsonText == #"{"delay":{"ms":200},"enabled":false,"when":{"active_for_ms":2000,"after_n":1,"every_nth":2,"first_n":3,"max_active":4,"probability":0.5,"sequence":[true,"pass"]}}"#)
    }

    @Test func kindsEncodeTheirKeys() {
        #expect(Fault.hang().jsonText == #"{"hang":{}}"#)
        #expect(Fault.hang(ms: 100, then: .reset).jsonText == #"{"hang":{"ms":100,"then":"reset"}}"#)
        #expect(Fault.throttle(kbps: 8).jsonText == #"{"throttle":{"down_bytes_per_second":1000}}"#)
        #expect(Fault.delay(.milliseconds(1500), phase: .firstByte).jsonText == #"{"delay":{"ms":1500,"phase":"first_byte"}}"#)
        #expect(Fault.delay(uniformMs: 10...20).jsonText == #"{"delay":{"uniform":{"max_ms":20,"min_ms":10}}}"#)
        #expect(Fault.reset(afterBytes: 10, errorCode: .cancel).jsonText == #"{"reset":{"after_bytes":10,"error_code":"CANCEL"}}"#)
        #expect(Fault.rstStream(errorCode: 7).jsonText == #"{"rst_stream":{"error_code":7}}"#)
        #expect(Fault.goAway(immediate: true, errorCode: .enhanceYourCalm).jsonText == #"{"goaway":{"error_code":"ENHANCE_YOUR_CALM","mode":"immediate"}}"#)
        #expect(Fault.goAway().jsonText == #"{"goaway":{}}"#)
        #expect(Fault.profile(.threeG).jsonText == #"{"profile":"3g"}"#)
        #expect(Fault.corrupt(.malformedJSON).jsonText == #"{"corrupt":{"mode":"malformed_json"}}"#)
        #expect(Fault.rewrite(status: 201, removeHeaders: ["ETag"]).jsonText == #"{"rewrite":{"remove_headers":["ETag"],"status":201}}"#)
    }

    @Test func encodableMatchesJSONText() throws {
        let rule = Rule.path("/a").fault(.close(afterBytes: 5)).fault(.truncate(keepBytes: 3))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(String(decoding: try encoder.encode(rule), as: UTF8.self) == rule.jsonText)
    }
}
