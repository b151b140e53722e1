import Foundation
import Testing
import FaultlineTestSupport

/// Lifetime of HTTP/2 upstream connections across reloads and the drain.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct UpstreamHTTP2ReloadTests {
    @Test func aReloadThatMovesTheUpstreamRetiresTheOldConnectionAfterItsStream() async throws {
        let first = try await H2Origin.start()
        defer { first.kill() }
        let second = try await H2Origin.start()
        defer { second.kill() }
        let proxy = try await H2UpstreamStack.proxy(upstream: H2UpstreamStack.h2cUpstream(port: first.port))
        defer { proxy.kill() }
        #expect(try await TLSCurl.get(proxy.url("/echo")).status == 200)
        // A slow exchange is in flight on the old connection when the reload happens.
        async let slow = TLSCurl.get(proxy.url("/slow?chunks=2&ms=400&size=5"))
        _ = try await first.output.waitForLine(containing: "request GET /slow", timeout: .seconds(20))
        var config = TLSProxyConfig.root(listeners: [TLSProxyConfig.plainListener],
                                         upstreams: ["o": H2UpstreamStack.h2cUpstream(port: second.port)], workers: 1)
        config["log"] = ["format": "json", "destination": "file", "path": "traffic.log"]
        _ = try proxy.directory.write("faultline.json", TLSProxyConfig.json(config))
        let seen = proxy.output.lines.count
        proxy.process.signal(SIGHUP)
        _ = try await proxy.output.waitForLine(containing: "configuration reloaded", after: seen)
        #expect(try await TLSCurl.get(proxy.url("/echo")).status == 200)
        #expect(try await second.waitForRequests(1).count == 1, "\(second.output.text)")
        // The old connection finished its stream, then said GOAWAY and closed.
        let finished = try await slow
        #expect(finished.status == 200 && finished.body == "sssssssss" + "s", "\(finished)")
        _ = try await first.output.waitForLine(containing: "conn 1 closed", timeout: .seconds(20))
        #expect(first.output.text.contains("conn 1 goaway 0"), "\(first.output.text)")
    }

    @Test func theDrainLetsAStreamFinishThenClosesTheUpstreamConnection() async throws {
        let origin = try await H2Origin.start()
        defer { origin.kill() }
        let proxy = try await H2UpstreamStack.proxy(upstream: H2UpstreamStack.h2cUpstream(port: origin.port))
        defer { proxy.kill() }
        async let slow = TLSCurl.get(proxy.url("/slow?chunks=2&ms=400&size=5"))
        _ = try await origin.output.waitForLine(containing: "request GET /slow", timeout: .seconds(20))
        let status = try await proxy.process.terminate()
        #expect(status == 0, "\(proxy.output.text)")
        let finished = try await slow
        #expect(finished.status == 200 && finished.body == "ssssssssss", "\(finished)")
        // Retired by the drain, the connection said GOAWAY (NO_ERROR) once its stream ended.
        _ = try await origin.output.waitForLine(containing: "conn 1 closed", timeout: .seconds(20))
        #expect(origin.output.text.contains("conn 1 goaway 0"), "\(origin.output.text)")
    }
}
