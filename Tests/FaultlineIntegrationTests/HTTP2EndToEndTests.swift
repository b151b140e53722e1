import Foundation
import Testing
import FaultlineTestSupport

/// HTTP/2 on both sides through the real binary: an h2 client on an h2c listener, Faultline,
/// and an HTTP/2 origin (`protocol: h2c`). A gRPC-style exchange keeps its trailers, many
/// multiplexed client streams share one upstream connection, and a stream fault on the client
/// side leaves the other streams and the upstream connection alone.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct HTTP2EndToEndTests {
    /// A proxy with an h2c listener in front of an h2c origin, JSON traffic log in its directory.
    static func proxy(origin: H2Origin, routes: [[String: Any]]? = nil) async throws -> TLSProxy {
        var listener = TLSProxyConfig.plainListener
        listener["h2c"] = true
        var config = TLSProxyConfig.root(listeners: [listener], upstreams: ["o": H2UpstreamStack.h2cUpstream(port: origin.port)],
                                         workers: 1)
        config["log"] = ["format": "json", "destination": "file", "path": "traffic.log"]
        if let routes { config["routes"] = routes }
        return try await TLSProxy.start(config)
    }

    static func probe(_ scenario: [String: Any]) async throws -> H2ProbeReport {
        let box = EndToEndScenario(scenario)
        return try await Blocking.run { try H2Probe.run(box.scenario) }
    }

    @Test func grpcUnaryKeepsItsTrailersAcrossBothHops() async throws {
        let origin = try await H2Origin.start()
        defer { origin.kill() }
        let proxy = try await Self.proxy(origin: origin)
        defer { proxy.kill() }
        let message = "\u{0}\u{0}\u{0}\u{0}\u{5}hello"
        let report = try await Self.probe([
            "connect": H2Probe.target(port: proxy.port),
            "actions": [
                ["do": "request", "label": "ok", "method": "POST", "path": "/grpc",
                 "extra": [["content-type", "application/grpc"], ["te", "trailers"]], "body": message],
                ["do": "request", "label": "failed", "method": "POST", "path": "/grpc?status=5&message=missing",
                 "extra": [["content-type", "application/grpc"], ["te", "trailers"]], "body": message],
                ["do": "request", "label": "echo", "method": "POST", "path": "/echo",
                 "extra": [["te", "trailers"]], "body": "abc", "trailers": [["x-sum", "3"]]],
            ],
        ])
        #expect(report.connected && report.error == nil && report.h2Error == nil, "\(report)")
        let ok = try #require(report.stream(labelled: "ok"))
        #expect(ok.status == 200 && ok.header("content-type") == "application/grpc" && ok.body == message, "\(ok)")
        #expect(ok.trailer("grpc-status") == "0" && ok.trailer("grpc-message") == "OK" && ok.ended, "\(ok)")
        let failed = try #require(report.stream(labelled: "failed"))
        #expect(failed.trailer("grpc-status") == "5" && failed.trailer("grpc-message") == "missing", "\(failed)")
        // Request trailers cross both hops as HTTP/2 trailers; TE: trailers reaches the origin.
        let echo = try #require(report.stream(labelled: "echo"))
        let body = try JSONObject.parse(Array((echo.body ?? "").utf8))
        #expect((body["trailers"] as? [[String]]) == [["x-sum", "3"]], "\(body)")
        #expect((body["headers"] as? [[String]])?.contains(["te", "trailers"]) == true, "\(body)")
        // The three client streams rode one upstream connection.
        #expect(H2UpstreamStack.connections(origin).count == 1, "\(origin.output.text)")
    }

    @Test func h2loadStreamsShareTheUpstreamConnection() async throws {
        let origin = try await H2Origin.start()
        defer { origin.kill() }
        let proxy = try await Self.proxy(origin: origin)
        defer { proxy.kill() }
        let result = try await Blocking.run {
            try Command.launch(["h2load", "-n", "400", "-c", "4", "-m", "20", proxy.url("/bytes/1000")],
                               timeout: .seconds(60))
        }
        #expect(result.status == 0, "\(result.output) \(result.error)")
        #expect(result.output.contains("400 succeeded, 0 failed, 0 errored"), "\(result.output)")
        #expect(result.output.contains("status codes: 400 2xx"), "\(result.output)")
        // One loop, one upstream: a few connections at most (a second one only if the origin's
        // concurrency limit of 100 is reached by the 80 streams in flight; it is not).
        #expect(H2UpstreamStack.connections(origin).count == 1, "\(origin.output.text)")
    }

    @Test func aResetFaultOnOneClientStreamLeavesTheOthersAndTheUpstream() async throws {
        let origin = try await H2Origin.start()
        defer { origin.kill() }
        let proxy = try await Self.proxy(origin: origin, routes: [
            ["name": "broken", "match": ["path": "/bytes/7"], "upstream": "o",
             "faults": [["reset": ["error_code": "CANCEL"]]]],
            ["name": "rest", "upstream": "o"],
        ])
        defer { proxy.kill() }
        let report = try await Self.probe([
            "connect": H2Probe.target(port: proxy.port),
            "actions": [
                ["do": "request", "label": "a", "path": "/bytes/5000"],
                ["do": "request", "label": "broken", "path": "/bytes/7"],
                ["do": "request", "label": "b", "path": "/bytes/6000"],
            ],
        ])
        let broken = try #require(report.stream(labelled: "broken"))
        #expect(broken.reset?.name == "CANCEL" && broken.status == nil, "\(broken)")
        for (label, size) in [("a", 5000), ("b", 6000)] {
            let stream = try #require(report.stream(labelled: label))
            #expect(stream.status == 200 && stream.bodyBytes == size && stream.ended, "\(stream)")
        }
        #expect(report.goaway == nil && !report.closed, "\(report)")
        #expect(H2UpstreamStack.connections(origin).count == 1, "\(origin.output.text)")
        // The reset stream never reached the origin (the fault fires before the response; the
        // upstream stream, if opened, was cancelled) and the log names the code.
        let log = try String(contentsOfFile: proxy.directory.path("traffic.log"), encoding: .utf8)
        let records = try log.split(separator: "\n").map { try JSONObject.parse(Array($0.utf8)) }
        let record = try #require(records.first { $0["url.path"] as? String == "/bytes/7" && $0["kind"] as? String == "exchange" }, "\(log)")
        #expect(record["http2.error_code"] as? String == "CANCEL" && record["http2.error_sender"] as? String == "faultline",
                "\(record)")
        #expect(record["network.protocol.version"] as? String == "2" && record["http2.stream_id"] as? Int == 3, "\(record)")
    }
}

/// A scenario handed to the blocking probe run: JSON-compatible values only, never mutated.
private struct EndToEndScenario: @unchecked Sendable {
    let scenario: [String: Any]
    init(_ scenario: [String: Any]) { self.scenario = scenario }
}
