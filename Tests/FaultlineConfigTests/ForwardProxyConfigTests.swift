import Foundation
import Testing
@testable import FaultlineConfig

@Suite("Forward-proxy listener config")
struct ForwardProxyConfigTests {
    private func parse(_ text: String, environment: [String: String] = [:]) throws(ConfigErrors) -> ProxyConfig {
        var diagnostics = Diagnostics()
        var context = LoadContext(baseDirectory: nil, checkFiles: false, now: Date(), environment: environment)
        guard case .success(let root) = JSONValue.parse(Data(text.utf8)) else {
            throw ConfigErrors(errors: [ConfigError(path: "", message: "bad JSON")], file: nil)
        }
        let config = ConfigLoader.validate(root, &context, &diagnostics)
        guard let config, diagnostics.errors.isEmpty else { throw ConfigErrors(errors: diagnostics.errors, file: nil) }
        return config
    }

    private func errors(_ text: String, environment: [String: String] = [:]) -> [String] {
        do {
            _ = try parse(text, environment: environment)
            return []
        } catch {
            return error.errors.map { "\($0.path): \($0.message)" }
        }
    }

    /// `--certs` and `--upstream-ca` rebuild the forward listeners and keep everything else.
    @Test func commandLineCertificatesKeepTheRestOfTheFile() throws {
        let config = try parse("""
            {"worker_affinity": "auto",
             "listeners": [{"address": "127.0.0.1:8888", "mode": "forward", "defer_accept": false,
                            "forward": {"ca": {"certificate": "a.pem", "key": "a-key.pem"}}}],
             "scenarios": [{"name": "down", "phases": [{"rules": [{"name": "r", "match": {"path": "/x"}, "faults": [{"status": 503}]}]}]}]}
            """)
        let overridden = config.overridingForward(certs: "/elsewhere", upstreamCA: "/ca.pem")
        #expect(overridden.listeners.first?.forward?.caCertificatePath == "/elsewhere/ca.pem")
        #expect(overridden.listeners.first?.forward?.upstreamCAPath == "/ca.pem")
        #expect(overridden.listeners.first?.deferAccept == false)
        #expect(overridden.scenarios == config.scenarios && overridden.scenarios.count == 1)
        #expect(overridden.workerAffinity == .auto)
    }

    @Test func shippedExampleLoads() throws {
        let directory = repositoryRoot.appendingPathComponent("config")
        let url = directory.appendingPathComponent("forward-proxy.json")
        let config = try ConfigLoader.parse(try Data(contentsOf: url), file: url.path, baseDirectory: directory.path)
        let forward = try #require(config.listeners.first?.forward)
        #expect(config.listeners.first?.address.description == "127.0.0.1:8888")
        #expect(forward.caCertificatePath.hasSuffix("certs/ca.pem"))
        #expect(config.upstreams.isEmpty)
        #expect(config.routes.last?.upstream == "")
        #expect(config.admin != nil && config.demoOrigin != nil)
        // A route without upstream compiles to "the host the client asked for".
        let route = RouteTable(config: config).match(host: "api.example.com", method: "GET", path: "/")
        #expect(route?.upstream.isRequestedHost == true)
    }

    @Test func defaultsInterceptEveryHost() throws {
        let config = try parse(#"{"listeners": [{"address": "127.0.0.1:0", "mode": "forward"}]}"#)
        let forward = try #require(config.listeners.first?.forward)
        #expect(forward == ForwardProxyConfig())
        #expect(forward.intercepts(host: "anything.example"))
        #expect(config.routes == [RouteConfig(name: "default", upstream: "")])
    }

    @Test func passThroughWinsOverIntercept() throws {
        let config = try parse("""
            {"listeners": [{"address": "127.0.0.1:0", "mode": "forward", "forward": {
              "intercept": ["*.example.com", "localhost"], "pass_through": ["pay.example.com"],
              "clients": ["10.0.0.0/8"], "max_tunnels": 7, "pass_through_after_refusals": 3,
              "credentials": [{"user": "dev", "password_env": "FWD_PASSWORD"}]}}]}
            """, environment: ["FWD_PASSWORD": "secret"])
        let forward = try #require(config.listeners.first?.forward)
        #expect(forward.intercepts(host: "api.example.com"))
        #expect(forward.intercepts(host: "API.Example.COM."))
        #expect(!forward.intercepts(host: "pay.example.com"))
        #expect(!forward.intercepts(host: "example.com"))
        #expect(forward.intercepts(host: "localhost"))
        #expect(forward.maxTunnels == 7 && forward.passThroughAfterRefusals == 3)
        #expect(forward.credentials == [ForwardCredential(user: "dev", password: "secret", passwordEnv: "FWD_PASSWORD")])
        #expect(forward.allows(client: "10.1.2.3") && forward.allows(client: "::ffff:10.1.2.3"))
        #expect(!forward.allows(client: "192.168.1.1"))
    }

    @Test func nonLoopbackNeedsCredentialsOrClients() {
        let open = errors(#"{"listeners": [{"address": "0.0.0.0:8888", "mode": "forward"}]}"#)
        #expect(open.count == 1 && open[0].hasPrefix("listeners[0].forward.credentials: required"))
        #expect(errors(#"{"listeners": [{"address": "0.0.0.0:8888", "mode": "forward", "forward": {"clients": ["10.0.0.0/8"]}}]}"#).isEmpty)
        #expect(errors(#"{"listeners": [{"address": "[::1]:8888", "mode": "forward"}]}"#).isEmpty)
    }

    @Test func mistakesAreNamed() {
        #expect(errors(#"{"listeners": [{"address": "127.0.0.1:0", "mode": "proxy"}], "upstreams": {"a": {"url": "http://a"}}}"#)
                == [#"listeners[0].mode: expected "reverse" or "forward", got "proxy""#])
        #expect(errors(#"{"listeners": [{"address": "127.0.0.1:0", "forward": {}}], "upstreams": {"a": {"url": "http://a"}}}"#)
                .first?.hasPrefix("listeners[0].forward: applies to forward-proxy listeners only") == true)
        #expect(errors(#"{"listeners": [{"address": "127.0.0.1:0", "mode": "forward", "forward": {"pass_through": ["a.com:443"]}}]}"#)
                .first?.hasPrefix("listeners[0].forward.pass_through[0]:") == true)
        #expect(errors(#"{"listeners": [{"address": "127.0.0.1:0", "mode": "forward", "forward": {"credentials": [{"user": "a:b", "password_env": "X"}]}}]}"#)
                .first?.hasPrefix("listeners[0].forward.credentials[0].user:") == true)
        #expect(errors(#"{"listeners": [{"address": "127.0.0.1:0", "mode": "forward", "forward": {"credentials": [{"user": "a", "password_env": "UNSET_VAR"}]}}]}"#)
                .first?.contains("UNSET_VAR is not set") == true)
        #expect(errors(#"{"listeners": [{"address": "127.0.0.1:0", "mode": "forward", "h2c": true}]}"#)
                .first?.hasPrefix("listeners[0].h2c: does not apply to a forward-proxy listener") == true)
        #expect(errors(#"{"listeners": [{"address": "127.0.0.1:0", "mode": "forward", "forward": {"max_tunnels": 0}}]}"#)
                .first?.hasPrefix("listeners[0].forward.max_tunnels:") == true)
    }
}
