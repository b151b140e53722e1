import Foundation
import Testing
import FaultlineTestSupport

/// The device-setup files of the admin API (`/ca.pem`, `/ca.der`, `/faultline.mobileconfig`,
/// `/proxy.pac`) fetched from the real binary with curl and parsed back by other tools: the
/// DER against `openssl x509 -outform DER`, the profile with Python's plistlib, the PAC file
/// run by node; the CA key is never served, and only these four skip the token.
@Suite("Device setup endpoints", .timeLimit(.minutes(3)))
struct DeviceSetupEndpointTests {
    /// A CA from `certs init`, and faultline with a forward listener using it and an admin API
    /// with a token.
    final class Stack: Sendable {
        let directory: TemporaryDirectory
        let proxy: FaultlineProcess
        let adminPort: Int
        static let token = "s3cret-device"

        /// `combined`: the CA certificate path names a file holding the key and then the certificate.
        init(forward: [String: Any] = [:], combined: Bool = false) async throws {
            directory = try TemporaryDirectory()
            let made = try await FaultlineProcess.command(["certs", "init", "--dir", directory.path("certs")])
            guard made.status == 0 else { throw TestFailure("certs init: \(made.output)") }
            let certificateFile = combined ? "certs/combined.pem" : "certs/ca.pem"
            if combined {
                let key = try Data(contentsOf: directory.url.appendingPathComponent("certs/ca-key.pem"))
                let certificate = try Data(contentsOf: directory.url.appendingPathComponent("certs/ca.pem"))
                _ = try directory.write(certificateFile, key + certificate)
            }
            var settings = forward
            settings["ca"] = ["certificate": directory.path(certificateFile), "key": directory.path("certs/ca-key.pem")]
            let config: [String: Any] = [
                "workers": 1,
                "listeners": [["address": "127.0.0.1:0", "mode": "forward", "forward": settings]],
                "admin": ["address": "127.0.0.1:0", "token": Self.token],
                "routes": [["name": "all"]],
            ]
            let data = try JSONSerialization.data(withJSONObject: config, options: [.prettyPrinted, .sortedKeys])
            proxy = try await FaultlineProcess.run(config: try directory.write("faultline.json", data))
            let line = try await proxy.output.waitForLine(containing: "faultline: admin API listening on ")
            guard let port = Int(line.text.split(separator: ":").last ?? "") else { throw TestFailure("no admin port in \(line.text)") }
            adminPort = port
        }

        /// `GET path` with curl, the body saved to `file`: status and Content-Type.
        func fetch(_ path: String, to file: String, host: String? = nil, token: Bool = false,
                   method: String = "GET") async throws -> (status: Int, type: String) {
            var arguments = ["-X", method, "-o", directory.path(file), "-w", "%{http_code} %{content_type}"]
            if let host { arguments += ["-H", "Host: \(host)"] }
            if token { arguments += ["-H", "Authorization: Bearer \(Self.token)"] }
            if method != "GET" { arguments += ["-H", "Content-Type: application/json"] }
            let result = try await Curl.run(arguments + ["http://127.0.0.1:\(adminPort)\(path)"])
            let parts = result.text.split(separator: " ", maxSplits: 1)
            guard result.exitCode == 0, let status = parts.first.flatMap({ Int($0) }) else {
                throw TestFailure("curl \(path): \(result.exitCode) \(result.stderr) \(result.text)")
            }
            return (status, parts.count > 1 ? String(parts[1]) : "")
        }

        func read(_ file: String) throws -> [UInt8] {
            Array(try Data(contentsOf: directory.url.appendingPathComponent(file)))
        }

        /// Runs a tool in the stack's directory; its standard output.
        func tool(_ arguments: [String]) async throws -> String {
            let directory = self.directory.url
            return try await Blocking.run { try Command.run(arguments, directory: directory).output }
        }

        func stop() { proxy.kill() }
    }

    @Test func theCertificateComesAsPEMAndDERWithoutTheToken() async throws {
        let stack = try await Stack()
        defer { stack.stop() }
        let pem = try await stack.fetch("/ca.pem", to: "served.pem")
        #expect(pem.status == 200 && pem.type == "application/x-pem-file", "\(pem)")
        let der = try await stack.fetch("/ca.der", to: "served.der")
        #expect(der.status == 200 && der.type == "application/x-x509-ca-cert", "\(der)")
        _ = try await stack.tool(["openssl", "x509", "-in", "certs/ca.pem", "-outform", "DER", "-out", "expected.der"])
        #expect(try stack.read("served.der") == stack.read("expected.der"))
        // The PEM is the same certificate, and openssl reads it.
        _ = try await stack.tool(["openssl", "x509", "-in", "served.pem", "-outform", "DER", "-out", "from-pem.der"])
        #expect(try stack.read("from-pem.der") == stack.read("expected.der"))
        #expect(!String(decoding: try stack.read("served.pem"), as: UTF8.self).contains("PRIVATE KEY"))
        // The rest of the API still needs the token.
        #expect(try await stack.fetch("/rules", to: "rules.json").status == 401)
        #expect(try await stack.fetch("/rules", to: "rules.json", token: true).status == 200)
        #expect(try await stack.fetch("/ca.pem", to: "post.json", method: "POST").status == 401)
        #expect(try await stack.fetch("/ca.pem", to: "post.json", token: true, method: "POST").status == 405)
    }

    @Test func theProfileParsesBackWithTheDERAndNameBasedUUIDs() async throws {
        let stack = try await Stack()
        defer { stack.stop() }
        let answer = try await stack.fetch("/faultline.mobileconfig", to: "faultline.mobileconfig")
        #expect(answer.status == 200 && answer.type == "application/x-apple-aspen-config", "\(answer)")
        _ = try await stack.tool(["openssl", "x509", "-in", "certs/ca.pem", "-outform", "DER", "-out", "expected.der"])
        let script = """
            import hashlib, json, plistlib, sys, uuid
            profile = plistlib.load(open(sys.argv[1], 'rb'))
            der = open(sys.argv[2], 'rb').read()
            fingerprint = hashlib.sha256(der).hexdigest()
            namespace = uuid.UUID('6f2c1a8e-4b7d-4e3a-9c51-0d8e2f7a4b19')
            payloads = profile['PayloadContent']
            root = payloads[0]
            print(json.dumps({
                'type': profile['PayloadType'], 'version': profile['PayloadVersion'],
                'name': profile['PayloadDisplayName'], 'payloads': len(payloads),
                'rootType': root['PayloadType'], 'rootVersion': root['PayloadVersion'],
                'der': root['PayloadContent'] == der,
                'profileUUID': profile['PayloadUUID'] == str(uuid.uuid5(namespace, 'faultline-ca-profile/' + fingerprint)).upper(),
                'rootUUID': root['PayloadUUID'] == str(uuid.uuid5(namespace, 'faultline-ca-root/' + fingerprint)).upper(),
            }))
            """
        let output = try await stack.tool([TestPaths.python3, "-c", script, "faultline.mobileconfig", "expected.der"])
        let parsed = try JSONObject.parse(Array(output.utf8))
        #expect(parsed["type"] as? String == "Configuration")
        #expect(parsed["version"] as? Int == 1)
        #expect((parsed["name"] as? String)?.contains("Faultline") == true, "\(output)")
        #expect(parsed["payloads"] as? Int == 1)
        #expect(parsed["rootType"] as? String == "com.apple.security.root")
        #expect(parsed["rootVersion"] as? Int == 1)
        #expect(parsed["der"] as? Bool == true, "\(output)")
        #expect(parsed["profileUUID"] as? Bool == true, "\(output)")
        #expect(parsed["rootUUID"] as? Bool == true, "\(output)")
        // Stable: the same CA gives the same bytes.
        _ = try await stack.fetch("/faultline.mobileconfig", to: "again.mobileconfig")
        #expect(try stack.read("again.mobileconfig") == stack.read("faultline.mobileconfig"))
    }

    @Test func thePACFileRunsInNodeAndSendsTheRightHostsToTheProxy() async throws {
        let stack = try await Stack(forward: ["intercept": ["api.example.com", "*.staging.example"], "pass_through": ["*.bank.example"]])
        defer { stack.stop() }
        let port = stack.proxy.port
        let answer = try await stack.fetch("/proxy.pac", to: "local.pac")
        #expect(answer.status == 200 && answer.type == "application/x-ns-proxy-autoconfig", "\(answer)")
        let hosts = ["api.example.com", "API.Example.com", "v2.api.staging.example", "staging.example", "login.bank.example",
                     "example.com", "other.org", "localhost", "127.0.0.1"]
        let local = try JSONObject.parse(Array(try await stack.tool(["node", Self.pacEval, "local.pac"] + hosts).utf8))
        let proxy = "PROXY 127.0.0.1:\(port)"
        let expected = [
            "api.example.com": proxy, "API.Example.com": proxy, "v2.api.staging.example": proxy,
            "staging.example": "DIRECT", "login.bank.example": proxy, "example.com": "DIRECT", "other.org": "DIRECT",
            "localhost": "DIRECT", "127.0.0.1": "DIRECT",
        ]
        for (host, result) in expected { #expect(local[host] as? String == result, "\(host): \(local)") }
        // The Android emulator asks for 10.0.2.2 (its alias of this machine's loopback): the PAC
        // file names the proxy there; a phone on the LAN gets its LAN address the same way.
        #expect(try await stack.fetch("/proxy.pac", to: "emulator.pac", host: "10.0.2.2:\(stack.adminPort)").status == 200)
        let emulator = try JSONObject.parse(Array(try await stack.tool(["node", Self.pacEval, "emulator.pac", "api.example.com"]).utf8))
        #expect(emulator["api.example.com"] as? String == "PROXY 10.0.2.2:\(port)", "\(emulator)")
        // An explicit address, and one that could break out of the script.
        #expect(try await stack.fetch("/proxy.pac?proxy=laptop.local:9999", to: "override.pac").status == 200)
        let override = try JSONObject.parse(Array(try await stack.tool(["node", Self.pacEval, "override.pac", "api.example.com"]).utf8))
        #expect(override["api.example.com"] as? String == "PROXY laptop.local:9999", "\(override)")
        #expect(try await stack.fetch("/proxy.pac?proxy=a%22%3B%20x:1", to: "bad.json").status == 400)
        #expect(try await stack.fetch("/proxy.pac?other=1", to: "bad.json").status == 400)
    }

    @Test func withoutAnInterceptListEveryHostButLoopbackGoesThroughTheProxy() async throws {
        let stack = try await Stack(forward: ["pass_through": ["*.bank.example"]])
        defer { stack.stop() }
        _ = try await stack.fetch("/proxy.pac", to: "all.pac")
        let results = try JSONObject.parse(Array(try await stack.tool(["node", Self.pacEval, "all.pac", "other.org", "login.bank.example",
                                                                       "localhost", "::1"]).utf8))
        let proxy = "PROXY 127.0.0.1:\(stack.proxy.port)"
        #expect(results["other.org"] as? String == proxy, "\(results)")
        #expect(results["login.bank.example"] as? String == proxy, "\(results)")
        #expect(results["localhost"] as? String == "DIRECT", "\(results)")
        #expect(results["::1"] as? String == "DIRECT", "\(results)")
    }

    @Test func theCAKeyIsNeverServed() async throws {
        // The certificate file also holds the key (a combined PEM): only the certificate leaves.
        let stack = try await Stack(combined: true)
        defer { stack.stop() }
        let key = try stack.read("certs/ca-key.pem")
        let keyLines = String(decoding: key, as: UTF8.self).split(separator: "\n").filter { !$0.hasPrefix("-----") }
        #expect(!keyLines.isEmpty)
        let probes = ["/ca-key.pem", "/ca.key", "/certs/ca-key.pem", "/ca-key.der", "/key.pem", "/ca.pem/../ca-key.pem",
                      "/%63a-key.pem", "/ca%2dkey.pem", "/ca.pem%00", "/CA.PEM", "/ca.pem.key", "/proxy-key.pem", "/certs/",
                      "/ui/../certs/ca-key.pem", "/faultline.mobileconfig/../ca-key.pem", "/ca.p12", "/ca.pfx"]
        for (index, path) in (Self.servedPaths + probes).enumerated() {
            for token in [false, true] {
                let file = "probe-\(index)-\(token).out"
                let answer = try await stack.fetch(path, to: file, token: token)
                let body = String(decoding: try stack.read(file), as: UTF8.self)
                #expect(!body.contains("PRIVATE KEY"), "\(path) served a key")
                for line in keyLines { #expect(!body.contains(line), "\(path) served a line of the key") }
                if !Self.servedPaths.contains(path) { #expect(answer.status == 404 || answer.status == 401, "\(path): \(answer)") }
            }
        }
        // The combined file's certificate is served.
        #expect(try await stack.fetch("/ca.pem", to: "served.pem").status == 200)
        #expect(String(decoding: try stack.read("served.pem"), as: UTF8.self).contains("BEGIN CERTIFICATE"))
    }

    @Test func setupFilesAcceptIPLiteralHostsAndNothingElseIsRelaxed() async throws {
        let stack = try await Stack()
        defer { stack.stop() }
        let port = stack.adminPort
        for host in ["10.0.2.2:\(port)", "192.168.1.20:\(port)", "[fd00::1]:\(port)", "localhost:\(port)"] {
            #expect(try await stack.fetch("/ca.der", to: "h.der", host: host).status == 200, "Host: \(host)")
        }
        for host in ["evil.example:\(port)", "10.0.2.2:\(port == 65535 ? 1 : port + 1)", "10.0.2.2"] {
            #expect(try await stack.fetch("/ca.der", to: "h.der", host: host).status == 421, "Host: \(host)")
        }
        // The token-protected API keeps the strict rule.
        #expect(try await stack.fetch("/rules", to: "r.json", host: "10.0.2.2:\(port)", token: true).status == 421)
    }

    static let servedPaths = ["/ca.pem", "/ca.der", "/faultline.mobileconfig", "/proxy.pac"]
    static let pacEval = TestPaths.scripts.appendingPathComponent("pac_eval.js").path
}

extension DeviceSetupEndpointTests {
    /// What a device does: fetch the CA from the admin API, trust only it, and use the proxy
    /// for HTTPS. The served certificate is the one the forward listener signs with.
    @Test func aClientTrustingTheServedCAGetsInterceptedHTTPS() async throws {
        let chain = try await TLSChainFactory.make()
        let origin = try await TLSOriginProcess.python(chain: chain.path("chain.pem"), key: chain.path("leaf.key"))
        defer { origin.kill() }
        let forward = try await ForwardStack.start(forward: ["upstream_ca": chain.path("root.pem")])
        defer { forward.stop() }
        let served = forward.directory.path("served-ca.pem")
        let fetched = try await Curl.run(["-o", served, "-w", "%{http_code}", forward.adminURL + "/ca.pem"])
        #expect(fetched.text == "200", "\(fetched.text) \(fetched.stderr)")
        let (result, status) = try await forward.curl(["-v", "--cacert", served, "https://localhost:\(origin.port)/device-path"])
        #expect(status == 200 && result.text.contains("/device-path"), "\(result.text) \(result.stderr)")
        // Faultline's leaf, not the origin's: the request was intercepted.
        #expect(result.stderr.contains("Faultline development") && !result.stderr.contains("Faultline Test Intermediate"),
                "\(result.stderr)")
    }
}
