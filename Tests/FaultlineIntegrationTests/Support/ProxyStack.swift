import Foundation
import FaultlineTestSupport

/// An origin and a Faultline proxy in front of it, started from a config file in a
/// temporary directory; both are killed when the stack is dropped.
final class ProxyStack: Sendable {
    let origin: OriginProcess
    let proxy: FaultlineProcess
    let directory: TemporaryDirectory
    let configPath: String

    private init(origin: OriginProcess, proxy: FaultlineProcess, directory: TemporaryDirectory, configPath: String) {
        self.origin = origin
        self.proxy = proxy
        self.directory = directory
        self.configPath = configPath
    }

    /// Starts `origin`, then the proxy with the config `configure` returns for the origin's port.
    static func start(origin: OriginProcess, _ configure: (Int) -> ProxyConfig = { .single(port: $0) }) async throws -> ProxyStack {
        let directory = try TemporaryDirectory()
        let configPath = try directory.write("faultline.json", configure(origin.port).json)
        let proxy = try await FaultlineProcess.run(config: configPath)
        return ProxyStack(origin: origin, proxy: proxy, directory: directory, configPath: configPath)
    }

    /// The demo origin behind the proxy.
    static func demo(_ configure: (Int) -> ProxyConfig = { .single(port: $0) }) async throws -> ProxyStack {
        try await start(origin: OriginProcess.demo(), configure)
    }

    /// The scripted Python origin behind the proxy.
    static func scripted(_ configure: (Int) -> ProxyConfig = { .single(port: $0) }) async throws -> ProxyStack {
        try await start(origin: OriginProcess.scripted(), configure)
    }

    var port: Int { proxy.port }
    func url(_ path: String) -> String { proxy.url(path) }

    /// Replaces the config file atomically (the proxy rereads it on SIGHUP).
    func rewriteConfig(_ text: String) throws {
        try directory.write("faultline.json", text)
    }

    func stop() {
        proxy.kill()
        origin.kill()
    }
}
