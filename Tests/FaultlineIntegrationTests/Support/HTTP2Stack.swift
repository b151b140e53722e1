import Foundation
import FaultlineTestSupport

/// A demo origin and a Faultline proxy with two listeners for HTTP/2 tests: a plain one with
/// `h2c` (prior knowledge) and a TLS one that offers `h2` by ALPN (the default), certified by
/// a test CA. Routes are JSON text; the last one catches everything else.
final class HTTP2Stack: Sendable {
    let origin: OriginProcess
    let proxy: FaultlineProcess
    let chain: TLSChain
    let directory: TemporaryDirectory

    private init(origin: OriginProcess, proxy: FaultlineProcess, chain: TLSChain, directory: TemporaryDirectory) {
        self.origin = origin
        self.proxy = proxy
        self.chain = chain
        self.directory = directory
    }

    /// Starts the stack (the demo origin unless `origin` is given); `routes` are route objects
    /// as JSON text, in front of the catch-all.
    static func start(routes: [String] = [], drainMs: Int = 5000, origin existing: OriginProcess? = nil) async throws -> HTTP2Stack {
        let origin: OriginProcess
        if let existing { origin = existing } else { origin = try await OriginProcess.demo() }
        let chain = try await TLSChainFactory.make()
        let directory = try TemporaryDirectory()
        let all = routes + [#"{"name": "all", "upstream": "o"}"#]
        let text = """
        {"workers": 1,
         "listeners": [{"address": "127.0.0.1:0", "h2c": true},
                       {"address": "127.0.0.1:0", "tls": {"certificate": "\(chain.path("chain.pem"))", "key": "\(chain.path("leaf.key"))"}}],
         "upstreams": {"o": {"url": "http://127.0.0.1:\(origin.port)", "timeouts_ms": {"connect": 5000, "response": 10000}}},
         "timeouts_ms": {"client_header": 2000, "client_idle": 60000, "drain": \(drainMs)},
         "routes": [\(all.joined(separator: ",\n"))]}
        """
        guard (try? JSONSerialization.jsonObject(with: Data(text.utf8))) != nil else {
            throw TestFailure("the test wrote invalid JSON:\n\(text)")
        }
        let path = try directory.write("faultline.json", text)
        let proxy = try await FaultlineProcess.run(["--config", path], listeners: 2)
        return HTTP2Stack(origin: origin, proxy: proxy, chain: chain, directory: directory)
    }

    /// A URL on the h2c listener.
    func h2c(_ path: String) -> String { "http://127.0.0.1:\(proxy.ports[0])\(path)" }
    /// A URL on the TLS listener.
    func tls(_ path: String) -> String { "https://127.0.0.1:\(proxy.ports[1])\(path)" }
    /// curl's arguments to trust the TLS listener.
    var trust: [String] { ["--cacert", chain.path("root.pem")] }

    /// Runs a tool (nghttp, h2load, python3) bounded in time; its output and exit status.
    func tool(_ arguments: [String], timeout: Duration = .seconds(30)) async throws -> CommandResult {
        try await Blocking.run { try Command.launch(arguments, timeout: timeout) }
    }

    /// Runs `script` (Python with the h2 package) with `arguments`.
    func python(_ script: String, _ arguments: [String], timeout: Duration = .seconds(30)) async throws -> CommandResult {
        let path = try directory.write("client-\(UUID().uuidString).py", script)
        return try await tool([TestPaths.python3, path] + arguments, timeout: timeout)
    }

    func stop() {
        proxy.kill()
        origin.kill()
    }

    deinit { stop() }
}
