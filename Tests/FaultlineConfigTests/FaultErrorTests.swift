import Testing
@testable import FaultlineConfig

@Suite("Fault config errors")
struct FaultErrorTests {
    static let known = "delay, status, reset, close, hang, throttle, truncate, corrupt, rewrite, profile, rst_stream, goaway"

    @Test(arguments: [
        (#"[{"delya": {"ms": 1}}]"#, #"routes[0].faults[0]: unknown fault kind "delya"; did you mean "delay"? (known: \#(known))"#),
        (#"[{"explode": {}}]"#, #"routes[0].faults[0]: unknown fault kind "explode" (known: \#(known))"#),
        (#"[{"name": "x"}]"#, "routes[0].faults[0]: expected one fault kind (\(known)), got none"),
        (#"[{"delay": 5, "status": 500}]"#, "routes[0].faults[0]: expected exactly one fault kind, got delay, status"),
        (#"[{"status": 500, "whne": {}}]"#, #"routes[0].faults[0].whne: unknown key; did you mean "when"?"#),
        (#"[7]"#, "routes[0].faults[0]: expected an object, got 7"),
        (#"{}"#, "routes[0].faults: expected an array of faults, got {}"),
        (#"[{"status": 500}, {"status": {"code": 700}}]"#, "routes[0].faults[1].status.code: expected 100...599, got 700"),
        (#"[{"status": 99}]"#, "routes[0].faults[0].status: expected 100...599, got 99"),
        (#"[{"status": {}}]"#, "routes[0].faults[0].status.code: expected 100...599, got nothing"),
        (#"[{"status": {"code": 500, "body": "a", "body_file": "b"}}]"#,
         "routes[0].faults[0].status: expected at most one of body, body_file, got body, body_file"),
        (#"[{"status": {"code": 500, "headers": {"Content-Length": "3"}}}]"#,
         "routes[0].faults[0].status.headers.Content-Length: the proxy sets Content-Length, Transfer-Encoding and Connection itself"),
        (#"[{"status": {"code": 500, "headers": {"X": "a\nb"}}}]"#,
         #"routes[0].faults[0].status.headers.X: expected a header value without control characters, got "a\nb""#),
        (#"[{"status": {"code": 500, "content_type": "text/html", "headers": {"content-type": "x"}}}]"#,
         "routes[0].faults[0].status.headers.content-type: conflicts with content_type; set only one"),
        (#"[{"status": {"code": 500, "upstrem": true}}]"#, #"routes[0].faults[0].status.upstrem: unknown key; did you mean "upstream"?"#),
        (#"[{"delay": {"ms": -5}}]"#, "routes[0].faults[0].delay.ms: expected an integer 0...86400000, got -5"),
        (#"[{"delay": -1}]"#, "routes[0].faults[0].delay: expected an integer 0...86400000, got -1"),
        (#"[{"delay": {"phase": "request"}}]"#, "routes[0].faults[0].delay: expected exactly one of ms, uniform, lognormal, got none"),
        (#"[{"delay": {"ms": 1, "uniform": {"min_ms": 1, "max_ms": 2}}}]"#,
         "routes[0].faults[0].delay: expected exactly one of ms, uniform, lognormal, got ms, uniform"),
        (#"[{"delay": {"uniform": {"min_ms": 300, "max_ms": 100}}}]"#,
         "routes[0].faults[0].delay.uniform: expected min_ms <= max_ms, got 300 > 100"),
        (#"[{"delay": {"uniform": {"min_ms": 300}}}]"#,
         "routes[0].faults[0].delay.uniform.max_ms: expected an integer 0...86400000, got nothing"),
        (#"[{"delay": {"lognormal": {"median_ms": 200, "sigma": -1}}}]"#,
         "routes[0].faults[0].delay.lognormal.sigma: expected a number 0...10, got -1"),
        (#"[{"delay": {"lognormal": {"median_ms": 200, "sigma": 1, "max_ms": 100}}}]"#,
         "routes[0].faults[0].delay.lognormal: expected median_ms <= max_ms, got 200 > 100"),
        (#"[{"delay": {"ms": 1, "phase": "late"}}]"#,
         #"routes[0].faults[0].delay.phase: expected "request" or "first_byte", got "late""#),
        (#"[{"reset": {"after_bytes": -1}}]"#, "routes[0].faults[0].reset.after_bytes: expected an integer >= 0, got -1"),
        (#"[{"hang": {"then": "explode"}}]"#, #"routes[0].faults[0].hang.then: expected "close" or "reset", got "explode""#),
        (#"[{"throttle": {"down_bytes_per_second": 0}}]"#,
         "routes[0].faults[0].throttle: expected down_bytes_per_second or up_bytes_per_second above 0, got neither"),
        (#"[{"throttle": {}}]"#,
         "routes[0].faults[0].throttle: expected down_bytes_per_second or up_bytes_per_second above 0, got neither"),
        (#"[{"truncate": {}}]"#, "routes[0].faults[0].truncate.keep_bytes: expected an integer >= 0, got nothing"),
        (#"[{"corrupt": {"mode": "zip"}}]"#,
         #"routes[0].faults[0].corrupt.mode: expected "malformed_json", "garbage_then_close" or "bad_chunk_framing", got "zip""#),
        (#"[{"rewrite": {}}]"#, "routes[0].faults[0].rewrite: expected at least one of status, add_headers, remove_headers, got {}"),
        (#"[{"rewrite": {"status": 600}}]"#, "routes[0].faults[0].rewrite.status: expected 100...599, got 600"),
        (#"[{"rewrite": {"remove_headers": ["a b"]}}]"#,
         #"routes[0].faults[0].rewrite.remove_headers[0]: expected a header name (an HTTP token), got "a b""#),
        (#"[{"profile": "4g"}]"#, #"routes[0].faults[0].profile: expected "3g", "very-bad" or "100-loss", got "4g""#),
        (#"[{"status": 500, "when": {"probability": 1.5}}]"#, "routes[0].faults[0].when.probability: expected a number 0...1, got 1.5"),
        (#"[{"status": 500, "when": {"first_n": 0}}]"#, "routes[0].faults[0].when.first_n: expected an integer >= 1, got 0"),
        (#"[{"status": 500, "when": {"every_nth": 0}}]"#, "routes[0].faults[0].when.every_nth: expected an integer >= 1, got 0"),
        (#"[{"status": 500, "when": {"after_n": -1}}]"#, "routes[0].faults[0].when.after_n: expected an integer >= 0, got -1"),
        (#"[{"status": 500, "when": {"max_active": 0}}]"#, "routes[0].faults[0].when.max_active: expected an integer >= 1, got 0"),
        (#"[{"status": 500, "when": {"active_for_ms": 0}}]"#, "routes[0].faults[0].when.active_for_ms: expected an integer >= 1, got 0"),
        (#"[{"status": 500, "when": {"sequence": []}}]"#,
         #"routes[0].faults[0].when.sequence: expected a non-empty array of steps (a status code 100...599, "pass", true or false), got []"#),
        (#"[{"status": 500, "when": {"sequence": [503, 700]}}]"#, "routes[0].faults[0].when.sequence[1]: expected 100...599, got 700"),
        (#"[{"status": 500, "when": {"sequence": ["skip"]}}]"#,
         #"routes[0].faults[0].when.sequence[0]: expected a status code 100...599, "pass", true or false, got "skip""#),
        (#"[{"reset": {}, "when": {"sequence": [503]}}]"#,
         #"routes[0].faults[0].when.sequence[0]: expected true, false or "pass" (status codes need a status fault), got 503"#),
        (#"[{"status": 500, "when": {"probabilty": 1}}]"#, #"routes[0].faults[0].when.probabilty: unknown key; did you mean "probability"?"#),
        (#"[{"status": 500, "enabled": "yes"}]"#, #"routes[0].faults[0].enabled: expected true or false, got "yes""#),
        (#"[{"status": 500, "name": ""}]"#, #"routes[0].faults[0].name: expected a non-empty string, got """#),
        (#"[{"status": 500, "name": "a"}, {"reset": {}, "name": "a"}]"#,
         #"routes[0].faults[1].name: duplicate fault name "a" (already used by routes[0].faults[0])"#),
    ])
    func reportsExactly(faults: String, expected: String) {
        #expect(configErrors(withFaults(faults)) == [expected])
    }

    @Test(arguments: [
        (#""fault_headers": {"enabled": 1}"#, "fault_headers.enabled: expected true or false, got 1"),
        (#""fault_headers": {"delay_header": "X-Delay"}"#, #"fault_headers.delay_header: expected a lowercase header name, got "X-Delay""#),
        (#""fault_headers": {"status_header": "x-faultline-delay-ms"}"#,
         #"fault_headers.status_header: expected a header name other than delay_header, got "x-faultline-delay-ms""#),
        (#""fault_headers": {"enable": true}"#, #"fault_headers.enable: unknown key; did you mean "enabled"?"#),
    ])
    func faultHeadersErrors(top: String, expected: String) {
        #expect(configErrors(withFaults("[]", top: top)) == [expected])
    }

    @Test func generatedNamesAvoidExplicitOnes() throws {
        let faults = try loadFaults(#"[{"status": 500, "name": "status"}, {"status": 502}, {"reset": {}, "name": "status-2"}]"#)
        #expect(faults.map(\.name) == ["status", "status-3", "status-2"])
    }
}
