import Foundation
import Testing
import FaultlineTestSupport

/// `faultline run` as a new user meets it: the one-line mode and its admin API, arguments
/// that do not go together, a config whose certificates are not minted yet.
@Suite(.timeLimit(.minutes(2)))
struct RunModesCLITests {
    /// The admin address a `run` printed.
    private func adminURL(of proxy: FaultlineProcess) async throws -> String {
        let marker = "faultline: admin API listening on "
        let line = try await proxy.output.waitForLine(containing: marker, timeout: .seconds(15))
        guard let range = line.text.range(of: marker) else { throw TestFailure("no admin address in \(line.text)") }
        return "http://" + line.text[range.upperBound...].trimmingCharacters(in: .whitespaces)
    }

    @Test func oneLineModeWithAdminServesRulesAndHAR() async throws {
        let origin = try await OriginProcess.demo()
        let proxy = try await FaultlineProcess.run(["--listen", "127.0.0.1:0", "--upstream", origin.url, "--admin", "127.0.0.1:0"])
        defer { proxy.kill(); origin.kill() }
        let admin = try await adminURL(of: proxy)
        #expect(!proxy.output.text.contains("no admin API"), "\(proxy.output.text)")

        let list = try await FaultlineProcess.command(["rules", "list", "--admin", admin])
        #expect(list.status == 0, "\(list.output)")
        #expect(list.output.contains("default  file"), "\(list.output)")
        // The README's rules leave "upstream" out: the only one there is ("default" here) is taken.
        let add = try await FaultlineProcess.command(["rules", "add", #"{"name": "down", "match": {"path": "/status/200"}, "faults": [{"status": 503}]}"#,
                                                      "--admin", admin])
        #expect(add.status == 0, "\(add.output)")
        let faulted = try await Curl.run(["-o", "/dev/null", "-w", "%{http_code}", proxy.url("/status/200")])
        #expect(faulted.text == "503")
        let plain = try await Curl.run(["-o", "/dev/null", "-w", "%{http_code}", proxy.url("/64")])
        #expect(plain.text == "200")

        let directory = try TemporaryDirectory()
        let file = directory.path + "/capture.har"
        let export = try await FaultlineProcess.command(["har", "export", "--output", file, "--admin", admin])
        #expect(export.status == 0, "\(export.output)")
        #expect(export.output.contains("2 entries"), "\(export.output)")
    }

    @Test func oneLineModeWithoutAdminSaysSoAndRulesSayWhatToStart() async throws {
        let origin = try await OriginProcess.demo()
        let proxy = try await FaultlineProcess.run(["--listen", "127.0.0.1:0", "--upstream", origin.url])
        defer { proxy.kill(); origin.kill() }
        try await proxy.output.waitForLine(containing: "no admin API", timeout: .seconds(15))
        #expect(proxy.output.text.contains("--admin 127.0.0.1:9901"), "\(proxy.output.text)")

        let port = try FreePort.closed()
        for command in [["rules", "list"], ["har", "export"]] {
            let run = try await FaultlineProcess.command(command + ["--admin", "http://127.0.0.1:\(port)"])
            #expect(run.status == 1, "\(command): \(run.output)")
            #expect(run.output.contains("cannot connect to http://127.0.0.1:\(port)"), "\(run.output)")
            #expect(run.output.contains("No admin API listens there"), "\(run.output)")
            #expect(run.output.contains("--upstream URL --admin 127.0.0.1:9901"), "\(run.output)")
        }
        let help = try await FaultlineProcess.command(["run", "--help"])
        #expect(help.output.contains("--admin ADDR"), "\(help.output)")
        #expect(help.output.contains("one-line mode"), "\(help.output)")
    }

    @Test func oneLineModeRefusesANonLoopbackAdmin() async throws {
        let run = try await FaultlineProcess.command(["run", "--upstream", "http://127.0.0.1:9", "--listen", "127.0.0.1:0",
                                                      "--admin", "0.0.0.0:0"])
        #expect(run.status == 3, "\(run.output)")
        #expect(run.output.contains("--admin: expected a loopback address"), "\(run.output)")
        #expect(!run.output.contains("listening on"))
    }

    @Test func adminOverridesTheFilesAdminAddress() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("c.json", """
        {"listeners": [{"address": "127.0.0.1:0"}], "upstreams": {"o": {"url": "http://127.0.0.1:9"}}}
        """)
        let proxy = try await FaultlineProcess.run(config: path, ["--admin", "127.0.0.1:0"])
        defer { proxy.kill() }
        let admin = try await adminURL(of: proxy)
        let list = try await FaultlineProcess.command(["rules", "list", "--admin", admin])
        #expect(list.status == 0, "\(list.output)")
    }

    @Test func upstreamWithConfigIsRefused() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("c.json", """
        {"listeners": [{"address": "127.0.0.1:0"}], "upstreams": {"o": {"url": "http://127.0.0.1:9"}}}
        """)
        let run = try await FaultlineProcess.command(["run", "--config", path, "--upstream", "http://127.0.0.1:8081"])
        #expect(run.status == 2, "\(run.output)")
        #expect(run.output.contains("--upstream applies without --config only"), "\(run.output)")
        #expect(!run.output.contains("listening on 127.0.0.1"))
    }
}
