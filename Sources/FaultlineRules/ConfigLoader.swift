import Foundation

/// Loads and validates configuration. It walks the JSONSerialization tree by hand rather
/// than using Codable, whose errors do not name the field and stop at the first problem.
public enum ConfigLoader {
    /// Reads and validates the JSON file at `path`; errors carry the file path.
    public static func load(path: String) throws(ConfigErrors) -> ProxyConfig {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let reason = FileManager.default.fileExists(atPath: path)
                ? "cannot read the file (\((error as NSError).localizedDescription))"
                : "no such file"
            throw ConfigErrors(errors: [ConfigError(path: "", message: reason)], file: path)
        }
        return try parse(data, file: path)
    }

    /// Validates JSON text; `file` is only used to prefix error messages.
    public static func parse(_ data: Data, file: String?) throws(ConfigErrors) -> ProxyConfig {
        let root: JSONValue
        switch JSONValue.parse(data) {
        case .success(let value): root = value
        case .failure(let error): throw ConfigErrors(errors: [error], file: file)
        }
        var diagnostics = Diagnostics()
        let config = validate(root, &diagnostics)
        guard let config, diagnostics.errors.isEmpty else {
            throw ConfigErrors(errors: diagnostics.errors, file: file)
        }
        return config
    }

    /// The one-route setup behind `faultline run --listen ADDR --upstream URL` (no file):
    /// every request goes to one upstream named "default". Host is rewritten to the
    /// upstream's, because someone pointing the proxy at a real site by URL expects that
    /// site's virtual host, not the proxy's address. Errors are attributed to the flags.
    public static func oneRoute(listen: String, upstreamURL: String) throws(ConfigErrors) -> ProxyConfig {
        var diagnostics = Diagnostics()
        var address: SocketAddressSpec?
        do {
            address = try SocketAddressSpec(parsing: listen)
        } catch {
            diagnostics.add("--listen", error)
        }
        var url: UpstreamURL?
        do {
            url = try UpstreamURL(parsing: upstreamURL)
        } catch {
            diagnostics.add("--upstream", error)
        }
        guard let address, let url, diagnostics.errors.isEmpty else {
            throw ConfigErrors(errors: diagnostics.errors, file: nil)
        }
        let upstream = UpstreamConfig(
            name: "default", scheme: url.scheme, host: url.host, port: url.port, hostHeader: .upstream)
        return ProxyConfig(
            listeners: [ListenerConfig(address: address)],
            upstreams: [upstream],
            routes: [RouteConfig(name: "default", upstream: upstream.name)])
    }
}
