import Foundation
import Testing
import FaultlineTestSupport

extension ForwardInterceptionTests {
    /// A refusal of the intercepted certificate for a host whose upstream names an app pin
    /// file (`pins.app`) says what that app's pins make of the real host's chain: not checked
    /// before Faultline has connected to it, then the verdict of the last handshake, in the
    /// `tls` record and in `GET /intercept`.
    @Test func aRefusalForAHostWithAnAppPinFileSaysWhatThosePinsMakeOfTheRealChain() async throws {
        let chain = try await TLSChainFactory.make()
        let origin = try await TLSOriginProcess.python(chain: chain.path("chain.pem"), key: chain.path("leaf.key"))
        defer { origin.kill() }
        let files = try TemporaryDirectory()
        let app = try files.write("Info.plist", AppPinFiles.ats(domain: "localhost", leaf: [chain.pin("leaf"), chain.pin("backup")]))
        let upstream = TLSProxyConfig.upstream(port: origin.port, caFile: chain.path("root.pem"), pins: ["app": app, "mode": "enforce"])
        let forward = try await ForwardStack.start(forward: [:], extra: ["upstreams": ["api": upstream],
                                                                         "log": ["destination": "stdout"]])
        defer { forward.stop() }
        // The pinning app trusts only the real chain's root.
        let pinned = ["--cacert", chain.path("root.pem"), "https://localhost:\(origin.port)/pinned-app"]

        let first = try await forward.curl(pinned)
        #expect(first.result.exitCode == 60, "\(first.result.exitCode) \(first.result.stderr)")
        let unchecked = try await forward.proxy.output.waitForLine(containing: "\"error.type\":\"intercept_refused\"")
        #expect(unchecked.text.contains("the app pin file \(app) (upstream api) has not been checked against the real chain yet"),
                "\(unchecked.text)")

        // A client that trusts the Faultline CA goes through: Faultline's own connection to the
        // real host checks the app's pins on its chain.
        let through = try await forward.curl(["--cacert", forward.caPath, "https://localhost:\(origin.port)/through"])
        #expect(through.status == 200, "\(through.result.text) \(through.result.stderr)")

        let second = try await forward.curl(pinned)
        #expect(second.result.exitCode == 60, "\(second.result.exitCode) \(second.result.stderr)")
        let verdict = "the app pin file \(app) (upstream api) on the real chain: PASS: the leaf key is pinned"
        let checked = try await forward.proxy.output.waitForLine("a refusal record with the app's verdict") {
            $0.contains("\"error.type\":\"intercept_refused\"") && $0.contains(verdict)
        }
        #expect(checked.text.contains("(refusal 2)"), "\(checked.text)")
        let listing = try await Curl.run([forward.adminURL + "/intercept"])
        let hosts = (try JSONSerialization.jsonObject(with: Data(listing.stdout)) as? [String: Any])?["hosts"] as? [[String: Any]]
        #expect((hosts?.first?["app_pins"] as? String)?.contains("PASS: the leaf key is pinned") == true, "\(listing.text)")
    }
}
