import Foundation
import FaultlineTestSupport

/// A demo origin and a Faultline proxy for the HTTP/2 fault table: one TLS listener that
/// offers `h2` by ALPN (certified by a test CA), the admin API, and JSON log records on
/// stdout. Routes are JSON text, in front of a catch-all without faults.
final class H2FaultStack: Sendable {
    let origin: OriginProcess
    let proxy: FaultlineProcess
    let chain: TLSChain
    let directory: TemporaryDirectory
    let adminPort: Int

    private init(origin: OriginProcess, proxy: FaultlineProcess, chain: TLSChain, directory: TemporaryDirectory, adminPort: Int) {
        self.origin = origin
        self.proxy = proxy
        self.chain = chain
        self.directory = directory
        self.adminPort = adminPort
    }

    static func start(routes: [String]) async throws -> H2FaultStack {
        let origin = try await OriginProcess.demo()
        let chain = try await TLSChainFactory.make()
        let directory = try TemporaryDirectory()
        let all = routes + [#"{"name": "all", "upstream": "o"}"#]
        let text = """
        {"workers": 1,
         "listeners": [{"address": "127.0.0.1:0", "tls": {"certificate": "\(chain.path("chain.pem"))", "key": "\(chain.path("leaf.key"))"}}],
         "admin": {"address": "127.0.0.1:0"},
         "upstreams": {"o": {"url": "http://127.0.0.1:\(origin.port)", "timeouts_ms": {"connect": 1000, "response": 5000}}},
         "timeouts_ms": {"client_header": 2000, "client_idle": 60000, "drain": 1000},
         "routes": [\(all.joined(separator: ",\n"))]}
        """
        guard (try? JSONSerialization.jsonObject(with: Data(text.utf8))) != nil else {
            throw TestFailure("the test wrote invalid JSON:\n\(text)")
        }
        let path = try directory.write("faultline.json", text)
        let proxy = try await FaultlineProcess.run(["--config", path])
        let line = try await proxy.output.waitForLine(containing: "admin API listening on ")
        guard let adminPort = Int(line.text.split(separator: ":").last ?? "") else { throw TestFailure("no admin port in \(line.text)") }
        return H2FaultStack(origin: origin, proxy: proxy, chain: chain, directory: directory, adminPort: adminPort)
    }

    /// A URL on the TLS listener.
    func url(_ path: String) -> String { "https://127.0.0.1:\(proxy.port)\(path)" }
    /// The test CA's certificate (PEM).
    var rootPath: String { chain.path("root.pem") }

    /// The exchange records whose query names `client` (`client=NAME` in the query).
    func exchanges(of client: String) -> [[String: Any]] {
        LogFile.records(in: proxy.output).filter {
            $0.kind == "exchange" && ($0["url.query"] as? String ?? "").contains("client=\(client)")
        }
    }

    /// `GET /stats`'s `http2` counters.
    func http2Counters() async throws -> [String: Int] {
        let stats = try await AdminRequests.json(port: adminPort, "GET", "/stats")
        guard let counters = stats["http2"] as? [String: Int] else { throw TestFailure("no http2 counters in \(stats)") }
        return counters
    }

    /// `GET /har`'s entries.
    func harEntries() async throws -> [[String: Any]] {
        let document = try await AdminRequests.json(port: adminPort, "GET", "/har")
        return HARValidator.entries(document)
    }

    func stop() {
        proxy.kill()
        origin.kill()
    }

    deinit { stop() }
}

extension H2FaultStack {
    /// One admin API request (JSON body when given); its status.
    func admin(_ method: String, _ path: String, body: String? = nil) async throws -> Int {
        var arguments = ["-X", method, "-o", "/dev/null", "-w", "%{http_code}"]
        if method != "GET" { arguments += ["-H", "Content-Type: application/json"] }
        if let body { arguments += ["--data-binary", body] }
        let result = try await Curl.run(arguments + ["http://127.0.0.1:\(adminPort)\(path)"])
        guard result.exitCode == 0, let status = Int(result.text) else {
            throw TestFailure("admin \(method) \(path): curl exit \(result.exitCode) \(result.stderr)")
        }
        return status
    }
}
