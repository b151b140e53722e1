import Foundation
import Testing
import FaultlineTestSupport

/// GOAWAY and a late RST_STREAM from an HTTP/2 upstream (a small scripted h2c origin).
@Suite(.serialized, .timeLimit(.minutes(2)))
struct UpstreamHTTP2GoAwayTests {
    @Test func aStreamAboveTheLastStreamIDGoesAgainOnANewConnection() async throws {
        let origin = try await GoAwayOrigin.start()
        defer { origin.kill() }
        let proxy = try await H2UpstreamStack.proxy(upstream: H2UpstreamStack.h2cUpstream(port: origin.port))
        defer { proxy.kill() }
        let first = try await TLSCurl.get(proxy.url("/one"))
        #expect(first.status == 200 && first.body == "conn 1", "\(first)")
        // Stream 3 meets GOAWAY(last 1): unprocessed, so the POST goes again, once, on conn 2.
        let second = try await TLSCurl.get(proxy.url("/two"), ["-X", "POST", "-d", "x", "-H", "X-Request-ID: after-goaway"])
        #expect(second.status == 200 && second.body == "conn 2", "\(second)")
        #expect(origin.requests == ["conn 1 stream 1 request /one", "conn 1 stream 3 request /two",
                                    "conn 2 stream 1 request /two"], "\(origin.output.text)")
        let records = try await LogFile.waitForExchanges(["after-goaway"], in: proxy.directory.path("traffic.log"))
        #expect(records.allSatisfy { $0["http2.error_code"] == nil && $0["error.type"] == nil }, "\(records)")
    }

    @Test func aResetAfterTheResponseStartedCutsTheResponse() async throws {
        let origin = try await GoAwayOrigin.start()
        defer { origin.kill() }
        let proxy = try await H2UpstreamStack.proxy(upstream: H2UpstreamStack.h2cUpstream(port: origin.port))
        defer { proxy.kill() }
        let cut = try await Curl.run(["-sS", "-i", "-H", "X-Request-ID: cut-response", proxy.url("/cut")])
        // The head and the first bytes went out; the cut is visible (no last chunk, closed).
        #expect(cut.text.hasPrefix("HTTP/1.1 200") && cut.text.contains("hello"), "\(cut.text)")
        #expect(cut.exitCode != 0, "curl must see a cut body: \(cut.stderr)")
        let records = try await LogFile.waitForExchanges(["cut-response"], in: proxy.directory.path("traffic.log"))
        #expect(records.contains { $0["error.type"] as? String == "upstream_reset"
            && $0["http2.error_code"] as? String == "INTERNAL_ERROR" }, "\(records)")
    }
}
