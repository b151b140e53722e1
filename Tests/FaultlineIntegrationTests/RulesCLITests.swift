import Foundation
import Testing
import FaultlineTestSupport

@Suite("faultline rules", .timeLimit(.minutes(2)))
struct RulesCLITests {
    private static let outage = #"{"name": "search-down", "match": {"path_prefix": "/users"}, "upstream": "demo", "faults": [{"status": {"code": 503}, "when": {"sequence": [503, "pass"]}}]}"#

    private func rules(_ stack: AdminStack, _ arguments: [String]) async throws -> (status: Int32, output: String) {
        var options = ["--admin", stack.adminURL]
        if let token = stack.token { options += ["--token", token] }
        return try await FaultlineProcess.command(["rules"] + arguments + options)
    }

    @Test func everySubcommandWithItsExitCode() async throws {
        let stack = try await AdminStack.start(token: "t0ken")
        defer { stack.stop() }
        var run = try await rules(stack, ["add", Self.outage])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("added rule search-down"))
        #expect(try await stack.status(of: "/users") == 503)

        run = try await rules(stack, ["list"])
        #expect(run.status == 0)
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("NAME") == true)
        #expect(lines.dropFirst().first?.hasPrefix("search-down  runtime  yes") == true, "\(run.output)")
        #expect(lines.contains { $0.hasPrefix("users") && $0.contains("file") && $0.contains("delay 0/0") }, "\(run.output)")

        run = try await rules(stack, ["disable", "search-down/status"])
        #expect(run.status == 0, "\(run.output)")
        #expect(try await stack.status(of: "/users") == 200)
        run = try await rules(stack, ["enable", "search-down/status"])
        #expect(run.status == 0)
        run = try await rules(stack, ["disable", "search-down"])
        #expect(run.status == 0)
        #expect(try await stack.status(of: "/users") == 200)
        run = try await rules(stack, ["enable", "search-down"])
        #expect(run.status == 0)

        run = try await rules(stack, ["reset"])
        #expect(run.status == 0)
        #expect(try await stack.status(of: "/users") == 503)
        run = try await rules(stack, ["stats", "--format", "json"])
        #expect(run.status == 0)
        let stats = try JSONObject.parse(Array(run.output.utf8))
        #expect(((stats["rules"] as? [[String: Any]])?.first?["fired"] as? Int) == 1)
        #expect((stats["http2"] as? [String: Any])?["streams_opened"] as? Int == 0, "\(stats)")
        run = try await rules(stack, ["stats"])
        #expect(run.output.contains("search-down  status"))
        #expect(run.output.contains("http2: 0 connections, 0 streams, 0 reset by faultline, 0 reset by client, 0 GOAWAY sent"),
                "\(run.output)")

        run = try await rules(stack, ["rm", "search-down"])
        #expect(run.status == 0)
        #expect(try await stack.ruleNames() == ["users", "all"])
    }

    @Test func refusalsExitOneWithTheAPIsMessage() async throws {
        let stack = try await AdminStack.start()
        defer { stack.stop() }
        var run = try await rules(stack, ["add", #"{"name": "x", "upstream": "demo", "faults": [{"status": 99}]}"#])
        #expect(run.status == 1)
        #expect(run.output.contains("rule.faults[0].status: expected 100...599, got 99"), "\(run.output)")
        run = try await rules(stack, ["add", #"{"name": "users", "upstream": "demo"}"#])
        #expect(run.status == 1)
        #expect(run.output.contains("exists"))
        run = try await rules(stack, ["rm", "nope"])
        #expect(run.status == 1)
        #expect(run.output.contains("no rule named \"nope\""))
        run = try await rules(stack, ["enable", "users/nope"])
        #expect(run.status == 1)
    }

    @Test func addReadsAFileOrStandardInputAndHonoursPosition() async throws {
        let stack = try await AdminStack.start()
        defer { stack.stop() }
        let file = try stack.directory.write("rule.json", #"{"name": "from-file", "match": {"path": "/f"}, "upstream": "demo"}"#)
        var run = try await rules(stack, ["add", file, "--position", "end"])
        #expect(run.status == 0, "\(run.output)")
        let child = try ChildProcess(executable: "/bin/sh", arguments: [
            "-c", "printf '%s' '{\"name\": \"from-stdin\", \"upstream\": \"demo\"}' | \"$0\" rules add - --admin \"$1\"",
            TestPaths.faultline, stack.adminURL,
        ])
        #expect(try await child.waitForExit(timeout: .seconds(15)) == 0)
        #expect(try await stack.ruleNames() == ["from-stdin", "users", "all", "from-file"])
        run = try await rules(stack, ["add", "/nonexistent/rule.json"])
        #expect(run.status == 2)
    }

    @Test func togglingARuleKeepsItsSequenceAndCounters() async throws {
        let stack = try await AdminStack.start()
        defer { stack.stop() }
        let rule = #"{"name": "flaky", "match": {"path": "/json"}, "upstream": "demo", "faults": [{"status": 503, "when": {"sequence": [503, 503, "pass"]}}]}"#
        var run = try await rules(stack, ["add", rule])
        #expect(run.status == 0, "\(run.output)")
        #expect(try await stack.status(of: "/json") == 503)
        run = try await rules(stack, ["disable", "flaky"])
        #expect(run.status == 0, "\(run.output)")
        #expect(try await stack.status(of: "/json") == 200)
        run = try await rules(stack, ["enable", "flaky"])
        #expect(run.status == 0, "\(run.output)")
        // The sequence goes on where it stopped: its second 503, then the pass.
        #expect(try await stack.status(of: "/json") == 503)
        #expect(try await stack.status(of: "/json") == 200)
        run = try await rules(stack, ["disable", "flaky/status"])
        #expect(run.status == 0, "\(run.output)")
        run = try await rules(stack, ["enable", "flaky/status"])
        #expect(run.status == 0, "\(run.output)")
        run = try await rules(stack, ["list", "--format", "json"])
        let list = try JSONObject.parse(Array(run.output.utf8))
        let flaky = (list["rules"] as? [[String: Any]])?.first { $0["name"] as? String == "flaky" }
        let stats = ((flaky?["faults"] as? [[String: Any]])?.first?["stats"] as? [String: Any])
        #expect(stats?["matched"] as? Int == 3, "\(run.output)")
        #expect(stats?["fired"] as? Int == 2, "\(run.output)")
    }

    @Test func aFaultSwitchIsUnderItsRulesSwitch() async throws {
        let stack = try await AdminStack.start()
        defer { stack.stop() }
        var run = try await rules(stack, ["add", #"{"name": "down", "match": {"path": "/json"}, "upstream": "demo", "faults": [{"status": 503}]}"#])
        #expect(run.status == 0, "\(run.output)")
        run = try await rules(stack, ["disable", "down"])
        #expect(run.status == 0, "\(run.output)")
        run = try await rules(stack, ["enable", "down/status"])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("the rule is disabled, so it fires once the rule is enabled (faultline rules enable down)"), "\(run.output)")
        #expect(try await stack.status(of: "/json") == 200)
        run = try await rules(stack, ["list"])
        let row = run.output.split(separator: "\n").first { $0.hasPrefix("down ") }.map(String.init) ?? ""
        #expect(row.split(separator: " ").prefix(3) == ["down", "runtime", "no"], "\(run.output)")
        #expect(row.contains("status 0/0") && !row.contains("(off)"), "\(run.output)")
        run = try await rules(stack, ["enable", "down"])
        #expect(run.status == 0, "\(run.output)")
        #expect(try await stack.status(of: "/json") == 503)
        // A fault switched off stays off when its rule is switched back on.
        run = try await rules(stack, ["disable", "down"])
        run = try await rules(stack, ["disable", "down/status"])
        run = try await rules(stack, ["enable", "down"])
        #expect(try await stack.status(of: "/json") == 200)
        run = try await rules(stack, ["list"])
        #expect(run.output.contains("status (off) 1/1"), "\(run.output)")
    }

    @Test func aNameInUseIsReplacedWithRulesReplace() async throws {
        let stack = try await AdminStack.start()
        defer { stack.stop() }
        var run = try await rules(stack, ["add", #"{"name": "users", "upstream": "demo"}"#])
        #expect(run.status == 1)
        #expect(run.output.contains("faultline rules replace"), "\(run.output)")
        #expect(run.output.contains("faultline rules rm users"), "\(run.output)")
        run = try await rules(stack, ["replace", #"{"name": "users", "match": {"path_prefix": "/users"}, "faults": [{"status": 418}]}"#])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("replaced rule users"), "\(run.output)")
        #expect(try await stack.status(of: "/users") == 418)
        #expect(try await stack.ruleNames() == ["users", "all"])
        run = try await rules(stack, ["replace", #"{"match": {"path": "/x"}}"#])
        #expect(run.status == 2, "\(run.output)")
    }

    @Test func usageErrorsExitTwoAndConnectionErrorsOne() async throws {
        var run = try await FaultlineProcess.command(["rules"])
        #expect(run.status == 2)
        run = try await FaultlineProcess.command(["rules", "explode"])
        #expect(run.status == 2)
        run = try await FaultlineProcess.command(["rules", "rm"])
        #expect(run.status == 2)
        run = try await FaultlineProcess.command(["rules", "list", "--format", "xml"])
        #expect(run.status == 2)
        run = try await FaultlineProcess.command(["rules", "--help"])
        #expect(run.status == 0)
        #expect(run.output.contains("faultline rules add"))
        let port = try FreePort.closed()
        run = try await FaultlineProcess.command(["rules", "list", "--admin", "http://127.0.0.1:\(port)"])
        // Like har: the command line was right, the admin API was not there (runtime failure).
        #expect(run.status == 1)
        #expect(run.output.contains("cannot connect"), "\(run.output)")
    }

    @Test func tokenIsSentAndMissingTokenIsRefused() async throws {
        let stack = try await AdminStack.start(token: "t0ken")
        defer { stack.stop() }
        let run = try await FaultlineProcess.command(["rules", "list", "--admin", stack.adminURL])
        #expect(run.status == 1)
        #expect(run.output.contains("bearer token"))
    }
}
