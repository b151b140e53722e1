import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import FaultlineTestSupport
@testable import FaultlineTesting

/// `configure(_:proxy: true)`: the session header, and Faultline as the HTTP proxy of
/// plain-HTTP URLs, which it then receives in absolute form.
@Suite("Proxy mode", .timeLimit(.minutes(2)))
struct ProxyModeTests {
    private static func session(_ faultline: Faultline) -> FaultlineSession {
        FaultlineSession(id: "0123456789abcdef", name: "", seed: nil, proxyURL: faultline.proxyURL, admin: faultline.admin)
    }

    @Test func configureSetsTheHeaderAndTheProxyDictionary() throws {
        let proxy = try #require(URL(string: "http://127.0.0.1:8123"))
        let faultline = Faultline.connect(admin: proxy, proxy: proxy)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpAdditionalHeaders = ["Accept": "application/json"]
        Self.session(faultline).configure(configuration)
        #expect(configuration.httpAdditionalHeaders?["X-Faultline-Session"] as? String == "0123456789abcdef")
        #expect(configuration.httpAdditionalHeaders?["Accept"] as? String == "application/json")
        #expect(configuration.connectionProxyDictionary?["HTTPProxy"] == nil)
        Self.session(faultline).configure(configuration, proxy: true)
        #expect(configuration.connectionProxyDictionary?["HTTPEnable"] as? Int == 1)
        #expect(configuration.connectionProxyDictionary?["HTTPProxy"] as? String == "127.0.0.1")
        #expect(configuration.connectionProxyDictionary?["HTTPPort"] as? Int == 8123)
        var request = URLRequest(url: proxy)
        Self.session(faultline).apply(to: &request)
        #expect(request.value(forHTTPHeaderField: "X-Faultline-Session") == "0123456789abcdef")
    }

    /// What a client configured as above sends: an absolute-form target, forwarded in origin
    /// form to the proxy's upstream whatever host the URL names.
    @Test func absoluteFormRequestsReachTheUpstream() async throws {
        let faultline = try await Launching.faultline()
        defer { faultline.stop() }
        let result = try await Curl.run(["-x", faultline.proxyURL.absoluteString, "http://faultline-test.invalid/status/418"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let status = try await Curl.run(["-x", faultline.proxyURL.absoluteString, "-o", "/dev/null", "-w", "%{http_code}",
                                         "http://faultline-test.invalid/status/418"])
        #expect(status.text == "418")
    }

    #if canImport(Darwin)
    /// Apple's URLSession honours the dictionary (swift-corelibs-foundation's does not).
    @Test func urlSessionUsesTheProxy() async throws {
        let faultline = try await Launching.faultline()
        defer { faultline.stop() }
        let configuration = URLSessionConfiguration.ephemeral
        Self.session(faultline).configure(configuration, proxy: true)
        let url = try #require(URL(string: "http://faultline-test.invalid/status/418"))
        let (_, response) = try await URLSession(configuration: configuration).data(from: url)
        #expect((response as? HTTPURLResponse)?.statusCode == 418)
    }
    #endif
}
