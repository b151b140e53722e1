import Foundation
import Testing
import FaultlineTestSupport

/// URLSession on Linux (FoundationNetworking, libcurl underneath) with a forward proxy: the
/// proxy environment variables reach it (libcurl reads them), connectionProxyDictionary does
/// not; intercepted HTTPS works with the Faultline CA as the only trusted root.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct ForwardURLSessionTests {
    static var probe: String { TestPaths.buildDirectory.appendingPathComponent("URLSessionProbe").path }

    /// The probe's outcome for one request, run with `environment` (`NAME=value`) added.
    static func outcome(_ arguments: [String], environment: [String] = []) async throws -> TrustedURLSession.Outcome {
        let result = try await Blocking.run {
            try Command.launch(["env"] + environment + [probe] + arguments, timeout: .seconds(60))
        }
        guard result.status == 0, let line = result.output.split(separator: "\n").first else {
            throw TestFailure("URLSessionProbe exited \(result.status): \(result.output) \(result.error)")
        }
        return try JSONDecoder().decode(TrustedURLSession.Outcome.self, from: Data(line.utf8))
    }

    /// FoundationNetworking stores connectionProxyDictionary and never hands it to libcurl
    /// (swift-corelibs-foundation, checked on Swift 6.3): the request goes straight to the
    /// origin. If this starts failing, the toolchain began honouring it: update
    /// docs/forward-proxy.md ("Clients").
    @Test func connectionProxyDictionaryIsIgnoredOnLinux() async throws {
        let forward = try await ForwardStack.start()
        defer { forward.stop() }
        let url = "http://127.0.0.1:\(forward.origin.port)/json?via=dictionary"
        let outcome = try await Self.outcome(["--proxy", "127.0.0.1:\(forward.proxy.port)", url])
        #expect(outcome.status == 200 && outcome.headers?["via"] == nil, "\(outcome) \(outcome.headers ?? [:])")
        let records = try await forward.journal()
        #expect(records.isEmpty, "\(records)")
    }

    /// libcurl reads `http_proxy` (lower case only: it ignores `HTTP_PROXY` for http://, the
    /// "httpoxy" rule) when the application names no proxy, and FoundationNetworking names none.
    @Test func httpProxyInTheEnvironmentReachesURLSessionLowerCaseOnly() async throws {
        let forward = try await ForwardStack.start()
        defer { forward.stop() }
        let url = "http://127.0.0.1:\(forward.origin.port)/json?via=environment"
        let lower = try await Self.outcome(["--default-proxy", url], environment: ["http_proxy=\(forward.proxyURL)"])
        #expect(lower.status == 200 && lower.headers?["via"] == "1.1 faultline", "\(lower) \(lower.headers ?? [:])")
        let upper = try await Self.outcome(["--default-proxy", url], environment: ["HTTP_PROXY=\(forward.proxyURL)"])
        #expect(upper.status == 200 && upper.headers?["via"] == nil, "\(upper) \(upper.headers ?? [:])")
        let records = try await forward.journal()
        #expect(records.count == 1, "\(records)")
    }

    @Test func httpsProxyInTheEnvironmentGetsInterceptedHTTPSWithTheFaultlineCATrusted() async throws {
        let chain = try await TLSChainFactory.make()
        let origin = try await TLSOriginProcess.python(chain: chain.path("chain.pem"), key: chain.path("leaf.key"))
        defer { origin.kill() }
        let forward = try await ForwardStack.start(["--upstream-ca", chain.path("root.pem")])
        defer { forward.stop() }
        // Both spellings of the HTTPS variable reach libcurl, which CONNECTs through the proxy.
        for variable in ["https_proxy", "HTTPS_PROXY"] {
            let outcomes = try await Blocking.run {
                try TrustedURLSession.run("https://localhost:\(origin.port)/through-urlsession/\(variable)", trusting: forward.caPath,
                                          extra: ["--default-proxy"], environment: ["\(variable)=\(forward.proxyURL)"])
            }
            #expect(outcomes.first?.status == 200 && outcomes.first?.headers?["via"] == "1.1 faultline",
                    "\(variable): \(outcomes) \(outcomes.first?.headers ?? [:])")
            #expect(origin.requests.contains { $0.contains("/through-urlsession/\(variable)") }, "\(origin.output.text)")
        }
        let records = try await forward.journal()
        #expect(records.filter { ($0["path"] as? String)?.hasPrefix("/through-urlsession/") == true }.count == 2, "\(records)")
    }
}
