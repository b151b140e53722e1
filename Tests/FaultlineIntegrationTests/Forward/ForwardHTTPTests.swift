import Foundation
import Testing
import FaultlineTestSupport

/// Absolute-form HTTP through a forward-proxy listener (`faultline run --forward`), with
/// curl `-x` and raw sockets: the request reaches the host it names, routes and faults
/// match that host, the journal records it; loops, userinfo and origin-form are refused.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct ForwardHTTPTests {
    @Test func absoluteFormReachesTheNamedHostWithItsHostHeader() async throws {
        let stack = try await ForwardStack.start()
        defer { stack.stop() }
        let (result, status) = try await stack.curl(["http://127.0.0.1:\(stack.origin.port)/headers"])
        #expect(status == 200, "\(result.text) \(result.stderr)")
        #expect(result.text.contains("\"host\": \"127.0.0.1:\(stack.origin.port)\""), "\(result.text)")
        #expect(!result.text.lowercased().contains("proxy-connection"), "\(result.text)")
        // A name resolves too, and the record names the host asked for as the upstream.
        let byName = try await stack.curl(["http://localhost:\(stack.origin.port)/json"])
        #expect(byName.status == 200, "\(byName.result.text)")
        let records = try await stack.journal()
        #expect(records.contains { $0["upstream"] as? String == "localhost:\(stack.origin.port)" && $0["path"] as? String == "/json" },
                "\(records)")
    }

    @Test func aRuleOnTheHostAskedForInjectsItsFault() async throws {
        let stack = try await ForwardStack.start()
        defer { stack.stop() }
        try await stack.addRule(#"{"name": "broken-json", "match": {"host": "localhost", "path": "/json"}, "faults": [{"status": 503}]}"#)
        let hit = try await stack.curl(["http://localhost:\(stack.origin.port)/json"])
        #expect(hit.status == 503, "\(hit.result.text)")
        // Another host, or another path, is untouched.
        let other = try await stack.curl(["http://127.0.0.1:\(stack.origin.port)/json"])
        #expect(other.status == 200, "\(other.result.text)")
        let path = try await stack.curl(["http://localhost:\(stack.origin.port)/headers"])
        #expect(path.status == 200, "\(path.result.text)")
    }

    /// `--certs DIR` (or `--upstream-ca FILE`) beside a config file rebuilds its listeners; the
    /// rest of the file, scenarios and settings included, stays. It once dropped the scenarios.
    @Test func certsOnTheCommandLineKeepTheFilesScenarios() async throws {
        let scenario: [String: Any] = [
            "name": "json-down", "start": true,
            "phases": [["rules": [["name": "down", "match": ["path": "/json"], "faults": [["status": 503]]]]]],
        ]
        let certs = try TemporaryDirectory()
        let stack = try await ForwardStack.start(forward: [:], extra: ["scenarios": [scenario]],
                                                 flags: ["--certs", certs.path("certs")])
        defer { stack.stop() }
        let hit = try await stack.curl(["http://127.0.0.1:\(stack.origin.port)/json"])
        #expect(hit.status == 503, "\(hit.result.text)")
        let list = try await Curl.run([stack.adminURL + "/scenarios"])
        let scenarios = (try JSONSerialization.jsonObject(with: Data(list.stdout)) as? [String: Any])?["scenarios"] as? [[String: Any]]
        #expect(scenarios?.map { $0["name"] as? String } == ["json-down"], "\(list.text)")
        #expect(scenarios?.first?["state"] as? String == "running", "\(list.text)")
    }

    @Test func requestsToFaultlineItselfAreRefused() async throws {
        let stack = try await ForwardStack.start()
        defer { stack.stop() }
        let admin = try await stack.curl(["http://127.0.0.1:\(stack.adminPort)/rules"])
        #expect(admin.status == 403 && admin.result.text.contains("is Faultline itself"), "\(admin.result.text)")
        let loop = try await stack.curl(["http://localhost:\(stack.proxy.port)/"])
        #expect(loop.status == 403, "\(loop.result.text)")
        // The proxy still serves afterwards.
        let after = try await stack.curl(["http://127.0.0.1:\(stack.origin.port)/json"])
        #expect(after.status == 200)
    }

    @Test func userinfoOriginFormAndOtherSchemesAreRefused() async throws {
        let stack = try await ForwardStack.start()
        defer { stack.stop() }
        for (target, expected) in [
            ("http://user:secret@127.0.0.1:\(stack.origin.port)/", "userinfo"),
            ("/plain-origin-form", "needs the full URL"),
            ("ftp://127.0.0.1:\(stack.origin.port)/", "scheme \"ftp\""),
            ("http://127.0.0.1:99999/", "bad request"),
        ] {
            let client = try RawClient(port: stack.proxy.port)
            try client.send("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let reply = String(decoding: client.readUntilClose().bytes, as: UTF8.self)
            #expect(reply.hasPrefix("HTTP/1.1 400") && reply.contains(expected), "\(target): \(reply)")
            #expect(!reply.contains("secret"), "\(reply)")
        }
    }

    @Test func aForwardListenerOffLoopbackNeedsCredentialsOrClients() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("open.json", #"{"listeners": [{"address": "0.0.0.0:0", "mode": "forward"}]}"#)
        let checked = try await FaultlineProcess.command(["check-config", path])
        #expect(checked.status == 3 && checked.output.contains("listeners[0].forward.credentials: required"), "\(checked.output)")
        let oneLine = try await FaultlineProcess.command(["run", "--forward", "0.0.0.0:0"])
        #expect(oneLine.status == 3 && oneLine.output.contains("--forward"), "\(oneLine.output)")
        let example = try await FaultlineProcess.command(["check-config", TestPaths.packageRoot.appendingPathComponent("config/forward-proxy.json").path])
        #expect(example.status == 0, "\(example.output)")
    }

    @Test func credentialsAreAskedForAndChecked() async throws {
        let stack = try await ForwardStack.start(forward: ["credentials": [["user": "dev", "password_env": "HOME"]]])
        defer { stack.stop() }
        let home = ProcessInfo.processInfo.environment["HOME"] ?? ""
        let none = try await stack.curl(["-i", "http://127.0.0.1:\(stack.origin.port)/json"])
        #expect(none.status == 407 && none.result.text.contains("Proxy-Authenticate: Basic"), "\(none.result.text)")
        let wrong = try await stack.curl(["--proxy-user", "dev:wrong", "http://127.0.0.1:\(stack.origin.port)/json"])
        #expect(wrong.status == 407)
        let right = try await stack.curl(["--proxy-user", "dev:\(home)", "http://127.0.0.1:\(stack.origin.port)/headers"])
        #expect(right.status == 200 && !right.result.text.lowercased().contains("proxy-authorization"), "\(right.result.text)")
    }
}
