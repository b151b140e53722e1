import Foundation
import FaultlineTestSupport

/// Runs `Tests/Scripts/dashboard_browser.py`, which drives the dashboard in headless Debian
/// Chromium through Playwright for Python, and reads its report: one check per thing proven,
/// the figures it measured, and the screenshots it saved.
enum DashboardBrowser {
    /// One check the script made.
    struct Check {
        let name: String
        let ok: Bool
        let detail: String
    }

    /// What one scenario found.
    struct Report {
        let checks: [Check]
        let figures: [String: Any]
        let screenshots: [String]
        let output: String

        var failures: [Check] { checks.filter { !$0.ok } }
    }

    /// The Python with Playwright and axe: `$FAULTLINE_UI_PYTHON`, else the virtual environment
    /// scripts/setup.sh makes (`.build/ui-venv`).
    static var python: String {
        if let path = ProcessInfo.processInfo.environment["FAULTLINE_UI_PYTHON"], !path.isEmpty { return path }
        return TestPaths.packageRoot.appendingPathComponent(".build/ui-venv/bin/python").path
    }

    /// Where screenshots go: `$FAULTLINE_UI_SCREENSHOTS`, else `.build/ui-screenshots`.
    static var screenshots: String {
        if let path = ProcessInfo.processInfo.environment["FAULTLINE_UI_SCREENSHOTS"], !path.isEmpty { return path }
        return TestPaths.packageRoot.appendingPathComponent(".build/ui-screenshots").path
    }

    static func run(_ scenario: String, adminPort: Int, proxyPort: Int, token: String? = nil, pid: Int32? = nil,
                    upstream: String? = nil, timeout: Duration = .seconds(300)) async throws -> Report {
        var arguments = [TestPaths.scripts.appendingPathComponent("dashboard_browser.py").path, scenario,
                         "--admin", "http://127.0.0.1:\(adminPort)", "--proxy", "http://127.0.0.1:\(proxyPort)", "--out", screenshots]
        if let token { arguments += ["--token", token] }
        if let pid { arguments += ["--pid", String(pid)] }
        if let upstream { arguments += ["--upstream", upstream] }
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw TestFailure("\(python) missing: scripts/setup.sh makes it (Playwright and axe for the dashboard's browser tests)")
        }
        let child = try ChildProcess(executable: python, arguments: arguments)
        let status = try await child.waitForExit(timeout: timeout)
        try await Deadline.poll("output of dashboard_browser.py \(scenario) to end", timeout: .seconds(30)) {
            child.output.isFinished ? () : nil
        }
        let output = child.output.text
        guard status == 0, let line = child.output.lines.last(where: { $0.text.hasPrefix("{\"scenario\"") }),
              let object = try? JSONSerialization.jsonObject(with: Data(line.text.utf8)) as? [String: Any] else {
            throw TestFailure("dashboard_browser.py \(scenario) exited \(status) without a report:\n\(output)")
        }
        let checks = ((object["checks"] as? [[String: Any]]) ?? []).map {
            Check(name: $0["name"] as? String ?? "?", ok: $0["ok"] as? Bool ?? false, detail: $0["detail"] as? String ?? "")
        }
        return Report(checks: checks, figures: object["figures"] as? [String: Any] ?? [:],
                      screenshots: object["screenshots"] as? [String] ?? [], output: output)
    }
}
