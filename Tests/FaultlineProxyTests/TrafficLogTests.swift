import FaultlineTestSupport
import Foundation
import Testing
@testable import FaultlineProxy
import FaultlineLog
import FaultlineConfig

/// How a reload treats the log: the same destination keeps its sink (no reopen, no lost
/// lines), a new one opens a new sink, an unwritable one refuses the whole snapshot.
@Suite("Traffic log across snapshots")
struct TrafficLogTests {
    private func config(log: LogConfig, har: HARConfig = HARConfig()) -> ProxyConfig {
        ProxyConfig(listeners: [], upstreams: [UpstreamConfig(name: "demo", host: "127.0.0.1")],
                    routes: [RouteConfig(name: "all", upstream: "demo")], log: log, har: har)
    }

    private func fileLog(_ path: String, headers: Bool = false) -> LogConfig {
        LogConfig(format: .json, destination: .file, path: path, headers: headers)
    }

    @Test func sameDestinationKeepsTheSinkAndNewOneOpensAnother() throws {
        let scratch = try TemporaryDirectory(prefix: "faultline-trafficlog")
        defer { scratch.remove() }
        let directory = scratch.path
        let first = try ConfigSnapshot(config: config(log: fileLog("\(directory)/a.log")), generation: 1)
        let sameFile = try ConfigSnapshot(config: config(log: fileLog("\(directory)/a.log", headers: true)),
                                          generation: 2, previous: first)
        #expect(sameFile.log.sink === first.log.sink)
        #expect(sameFile.log.policy.options.headers)
        let otherFile = try ConfigSnapshot(config: config(log: fileLog("\(directory)/b.log")), generation: 3, previous: sameFile)
        #expect(otherFile.log.sink !== sameFile.log.sink)
        #expect(FileManager.default.fileExists(atPath: "\(directory)/b.log"))
        let off = try ConfigSnapshot(config: config(log: LogConfig(off: true)), generation: 4, previous: otherFile)
        #expect(off.log.sink == nil)
    }

    @Test func unwritablePathRefusesTheSnapshotNamingLogPath() throws {
        do {
            _ = try ConfigSnapshot(config: config(log: fileLog("/proc/faultline-no-such-dir/x.log")), generation: 1)
            Issue.record("an unwritable log path was accepted")
        } catch {
            #expect(error.errors.first?.path == "log.path", "\(error)")
            #expect(error.description.contains("/proc/faultline-no-such-dir/x.log"), "\(error)")
        }
    }

    @Test func harCaptureOutlivesSnapshotsAndFollowsItsSwitch() throws {
        let first = try ConfigSnapshot(config: config(log: LogConfig(off: true)), generation: 1)
        #expect(first.log.capture != nil && first.log.isEnabled)
        var record = LogRecord(kind: .exchange, requestID: "kept")
        record.setTarget("/a", policy: first.log.policy)
        first.log.write(exchange: record)
        let disabled = try ConfigSnapshot(config: config(log: LogConfig(off: true), har: HARConfig(enabled: false)),
                                          generation: 2, previous: first)
        #expect(disabled.log.capture == nil && !disabled.log.isEnabled)
        let enabled = try ConfigSnapshot(config: config(log: LogConfig(off: true), har: HARConfig(maxEntries: 5)),
                                         generation: 3, previous: disabled)
        #expect(enabled.log.sharedCapture === first.log.sharedCapture)
        #expect(enabled.log.sharedCapture.count == 1)
    }

    @Test func logLineKeepsOnlyWhatTheLogAsksFor() throws {
        // HAR wants headers and bodies; the log line does not: one record, redacted once, trimmed for the line.
        let snapshot = try ConfigSnapshot(config: config(log: LogConfig(off: true)), generation: 1)
        let policy = snapshot.log.policy
        #expect(policy.options.headers && policy.options.bodies)
        var record = LogRecord(kind: .exchange)
        record.addHeader(name: "Authorization", value: "Bearer CANARY", direction: .request, policy: policy)
        record.setBody(Array(#"{"password":"CANARY","user":"ann"}"#.utf8), contentType: "application/json",
                       direction: .request, policy: policy)
        let line = record.trimmed(headers: false, bodies: false, bodyMaxBytes: 0)
        #expect(line.requestHeaders.isEmpty && line.requestBody == nil && line.redacted.isEmpty)
        let text = String(decoding: JSONLineEncoder.encode(record), as: UTF8.self)
        #expect(!text.contains("CANARY") && text.contains("ann"), "\(text)")
    }
}
