import Foundation
import Testing
import FaultlineTestSupport

/// The dashboard in a real browser: headless Debian Chromium driven by Playwright for Python
/// (`Tests/Scripts/dashboard_browser.py`) against the real binary, with traffic from curl and
/// h2load. Each scenario saves screenshots to `.build/ui-screenshots` and runs axe-core on
/// the views it shows. Serialized: one Chromium at a time on a 2-core machine.
@Suite("Dashboard in a browser", .serialized, .timeLimit(.minutes(6)))
struct DashboardBrowserTests {
    /// The session stack with headers logged (the detail view shows them; the lines go to
    /// the captured stdout).
    static func stack(extra: [String: Any] = [:]) async throws -> SessionStack {
        var settings: [String: Any] = ["log": ["headers": true]]
        settings.merge(extra) { _, new in new }
        return try await SessionStack.start(extra: settings)
    }

    static func expectPassed(_ report: DashboardBrowser.Report, _ scenario: String) {
        print("dashboard \(scenario): figures \(report.figures), screenshots \(report.screenshots)")
        #expect(!report.checks.isEmpty, "no checks ran:\n\(report.output)")
        for failure in report.failures {
            Issue.record("\(scenario): \(failure.name): \(failure.detail)")
        }
    }

    @Test func theLiveTableShowsACurlWithItsFieldsAndDetail() async throws {
        let stack = try await Self.stack()
        defer { stack.stop() }
        let report = try await DashboardBrowser.run("live", adminPort: stack.adminPort, proxyPort: stack.proxy.port)
        Self.expectPassed(report, "live")
    }

    @Test func failThisRequestThenSwitchTheFaultOff() async throws {
        let stack = try await Self.stack()
        defer { stack.stop() }
        let report = try await DashboardBrowser.run("fail", adminPort: stack.adminPort, proxyPort: stack.proxy.port)
        Self.expectPassed(report, "fail")
    }

    @Test func aSessionShowsItsJournalAndANetworkProfileSlowsADownload() async throws {
        let stack = try await Self.stack()
        defer { stack.stop() }
        let report = try await DashboardBrowser.run("sessions", adminPort: stack.adminPort, proxyPort: stack.proxy.port)
        Self.expectPassed(report, "sessions")
    }

    @Test func theTokenPromptAndRefusalsToOtherOrigins() async throws {
        let token = "dashboard-test-token"
        let stack = try await Self.stack(extra: ["admin": ["address": "127.0.0.1:0", "token": token]])
        defer { stack.stop() }
        let report = try await DashboardBrowser.run("token", adminPort: stack.adminPort, proxyPort: stack.proxy.port, token: token)
        Self.expectPassed(report, "token")
    }

    @Test func thePinsViewShowsAFailingCandidate() async throws {
        // The upstream serves the rotated chain: the live set (rotated + backup) passes, the
        // candidate set (the old leaf + backup) would refuse it.
        let chain = try await TLSChainFactory.make()
        let origin = try await TLSOriginProcess.python(chain: chain.path("rotated-chain.pem"), key: chain.path("rotated.key"))
        let pins: [String: Any] = ["sha256": [chain.pin("rotated"), chain.pin("backup")], "mode": "enforce",
                                   "candidate": ["sha256/" + chain.pin("leaf"), "sha256/" + chain.pin("backup")]]
        let proxy = try await TLSProxy.start(TLSProxyConfig.root(
            listeners: [TLSProxyConfig.plainListener],
            upstreams: ["rotated": TLSProxyConfig.upstream(port: origin.port, caFile: chain.path("root.pem"), pins: pins)]))
        defer {
            proxy.kill()
            origin.kill()
        }
        let reply = try await TLSCurl.get(proxy.url("/through"))
        #expect(reply.status == 200, "\(reply)")
        let adminPort = try #require(proxy.adminPort)
        let report = try await DashboardBrowser.run("pins", adminPort: adminPort, proxyPort: proxy.port, upstream: "rotated")
        Self.expectPassed(report, "pins")
    }

    @Test func twoThousandExchangesASecondWithThePageOpen() async throws {
        // No log: the proxy's own work is what the page watches.
        let stack = try await SessionStack.start(extra: ["log": ["off": true]])
        defer { stack.stop() }
        let report = try await DashboardBrowser.run("load", adminPort: stack.adminPort, proxyPort: stack.proxy.port,
                                                    pid: stack.proxy.child.pid)
        Self.expectPassed(report, "load")
    }
}
