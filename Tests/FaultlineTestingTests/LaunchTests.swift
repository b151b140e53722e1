import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import FaultlineTestSupport
@testable import FaultlineTesting

/// Launch, readiness and stop: nothing is left behind, and failures say why.
@Suite("Launch and stop", .timeLimit(.minutes(2)))
struct LaunchTests {
    private static func isAlive(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno != ESRCH
    }

    @Test func stopLeavesNoProcessAndNoDirectory() async throws {
        let faultline = try await Launching.faultline()
        let proxy = try #require(faultline.pid)
        let origin = try #require(faultline.demoOriginPID)
        let directory = try #require(faultline.logFile).deletingLastPathComponent()
        #expect(Self.isAlive(proxy) && Self.isAlive(origin))
        #expect(faultline.proxyURL.host == "127.0.0.1" && faultline.proxyURL.port != 0)
        let (_, response) = try await URLSession.shared.data(from: faultline.proxyURL.appendingPathComponent("json"))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        faultline.stop()
        #expect(!Self.isAlive(proxy))
        #expect(!Self.isAlive(origin))
        #expect(!FileManager.default.fileExists(atPath: directory.path))
        #expect(faultline.pid == nil)
        faultline.stop()
    }

    @Test func deinitStopsTheProcesses() async throws {
        var faultline: Faultline? = try await Launching.faultline()
        let proxy = try #require(faultline?.pid)
        let origin = try #require(faultline?.demoOriginPID)
        faultline = nil
        #expect(!Self.isAlive(proxy))
        #expect(!Self.isAlive(origin))
    }

    @Test func givenUpstreamStartsNoDemoOrigin() async throws {
        let origin = try await Launching.faultline()
        defer { origin.stop() }
        let faultline = try await Launching.faultline(upstream: origin.proxyURL)
        defer { faultline.stop() }
        #expect(faultline.demoOriginPID == nil)
        #expect(faultline.upstreamURL == origin.proxyURL)
        let (_, response) = try await URLSession.shared.data(from: faultline.proxyURL.appendingPathComponent("json"))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
    }

    @Test func missingBinaryListsWhatWasSearched() async throws {
        let error = await #expect(throws: FaultlineError.self) {
            _ = try await Faultline.launch(binary: "/nonexistent/faultline")
        }
        guard case .binaryNotFound(let searched)? = error else {
            Issue.record("expected binaryNotFound, got \(String(describing: error))")
            return
        }
        #expect(searched == ["/nonexistent/faultline"])
        #expect(error?.description.contains("/nonexistent/faultline") == true)
    }

    @Test func pathIsSearchedInOrder() throws {
        let environment = ["PATH": "/nonexistent/a:/nonexistent/b"]
        do {
            let found = try BinaryLocator.locate(explicit: nil, environment: environment)
            Issue.record("found \(found) on a PATH without it")
        } catch FaultlineError.binaryNotFound(let searched) {
            #expect(searched == ["/nonexistent/a/faultline", "/nonexistent/b/faultline"])
        }
        let found = try BinaryLocator.locate(explicit: nil, environment: ["PATH": "/nonexistent:" + TestPaths.buildDirectory.path,
                                                                          "FAULTLINE_BIN": ""])
        #expect(found == TestPaths.buildDirectory.appendingPathComponent("faultline").path)
    }

    @Test func aDirectoryInFaultlineBinIsNamedAsSuch() throws {
        let directory = TestPaths.buildDirectory.path
        do {
            let found = try BinaryLocator.locate(explicit: nil, environment: ["FAULTLINE_BIN": directory])
            Issue.record("found \(found) from a directory")
        } catch let error as FaultlineError {
            #expect(error.description.contains("\(directory) (a directory: name the binary itself, e.g. \(directory)/faultline)"),
                    "\(error.description)")
        }
    }

    @Test func aDirectoryListedTwiceInPathIsSearchedOnce() throws {
        do {
            let found = try BinaryLocator.locate(explicit: nil, environment: ["PATH": "/nonexistent/a:/nonexistent/b:/nonexistent/a"])
            Issue.record("found \(found) on a PATH without it")
        } catch FaultlineError.binaryNotFound(let searched) {
            #expect(searched == ["/nonexistent/a/faultline", "/nonexistent/b/faultline"])
        }
    }

    @Test func refusedConfigIsALaunchFailureWithTheOutput() async throws {
        let upstream = try #require(URL(string: "http://127.0.0.1:9/some/path"))
        let error = await #expect(throws: FaultlineError.self) {
            _ = try await Faultline.launch(upstream: upstream, binary: TestPaths.faultline, readinessTimeout: .seconds(60))
        }
        guard case .launchFailed(let reason, let output)? = error else {
            Issue.record("expected launchFailed, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("exited with status"))
        #expect(output.contains("upstreams.default.url"))
    }

    @Test func silentBinaryTimesOutAndIsEnded() async throws {
        let directory = try TemporaryDirectory()
        let script = directory.path("faultline")
        let pidFile = directory.path("pid")
        try Data("#!/bin/sh\necho $$ > '\(pidFile)'\necho starting\nexec sleep 30\n".utf8).write(to: URL(fileURLWithPath: script))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script)
        let error = await #expect(throws: FaultlineError.self) {
            _ = try await Faultline.launch(binary: script, readinessTimeout: .milliseconds(300))
        }
        guard case .launchFailed(let reason, let output)? = error else {
            Issue.record("expected launchFailed, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("demo origin listening on"))
        #expect(output.contains("starting"))
        let pidText = try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let pid = try #require(Int32(pidText))
        #expect(!Self.isAlive(pid))
    }

    @Test func unreachableAdminNamesTheURL() async throws {
        let admin = try #require(URL(string: "http://127.0.0.1:9"))
        let faultline = Faultline.connect(admin: admin, proxy: admin)
        let error = await #expect(throws: FaultlineError.self) { try await faultline.health() }
        guard case .adminUnreachable(let url, _)? = error else {
            Issue.record("expected adminUnreachable, got \(String(describing: error))")
            return
        }
        #expect(url.absoluteString == "http://127.0.0.1:9/health")
    }
}
