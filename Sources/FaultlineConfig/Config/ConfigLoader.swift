import Foundation

/// Loads and validates configuration. It walks the JSONSerialization tree by hand rather
/// than using Codable, whose errors do not name the field and stop at the first problem.
public enum ConfigLoader {
    /// Reads and validates the JSON file at `path`; errors carry the file path. Relative
    /// certificate, key and CA paths are resolved against the file's directory and must
    /// be readable.
    public static func load(path: String) throws(ConfigErrors) -> ProxyConfig {
        try loadWithWarnings(path: path).config
    }

    /// Same as `load(path:)`, also returning the warnings (e.g. a pin set without a
    /// backup); expiry warnings are judged against `now`.
    public static func loadWithWarnings(
        path: String, now: Date = Date()
    ) throws(ConfigErrors) -> (config: ProxyConfig, warnings: [ConfigWarning]) {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let reason = FileManager.default.fileExists(atPath: path)
                ? "cannot read the file (\((error as NSError).localizedDescription))"
                : "no such file"
            throw ConfigErrors(errors: [ConfigError(path: "", message: reason)], file: path)
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        return try parseWithWarnings(data, file: path, baseDirectory: directory, now: now)
    }

    /// Validates JSON text; `file` is only used to prefix error messages. Relative file
    /// paths are resolved against `baseDirectory`, or kept as written when it is nil
    /// (then they are relative to the working directory). `checkFiles: false` skips the
    /// check that certificate, key and CA files exist and are readable.
    public static func parse(
        _ data: Data, file: String?, baseDirectory: String? = nil, checkFiles: Bool = true
    ) throws(ConfigErrors) -> ProxyConfig {
        try parseWithWarnings(data, file: file, baseDirectory: baseDirectory, checkFiles: checkFiles).config
    }

    /// Same as `parse(_:file:baseDirectory:checkFiles:)`, also returning the warnings;
    /// expiry warnings are judged against `now`.
    public static func parseWithWarnings(
        _ data: Data, file: String?, baseDirectory: String? = nil, checkFiles: Bool = true, now: Date = Date()
    ) throws(ConfigErrors) -> (config: ProxyConfig, warnings: [ConfigWarning]) {
        let root: JSONValue
        switch JSONValue.parse(data) {
        case .success(let value): root = value
        case .failure(let error): throw ConfigErrors(errors: [error], file: file)
        }
        var diagnostics = Diagnostics()
        var context = LoadContext(baseDirectory: baseDirectory, checkFiles: checkFiles, now: now)
        let config = validate(root, &context, &diagnostics)
        guard let config, diagnostics.errors.isEmpty else {
            throw ConfigErrors(errors: diagnostics.errors, file: file)
        }
        return (config, context.warnings)
    }

    /// The one-route setup behind `faultline run --listen ADDR --upstream URL [--admin ADDR]`
    /// (no file): every request goes to one upstream named "default". Host is rewritten to the
    /// upstream's, because someone pointing the proxy at a real site by URL expects that
    /// site's virtual host, not the proxy's address. Errors are attributed to the flags.
    ///
    /// `admin` (a loopback address: there is no token here) adds the admin API. The HAR
    /// capture and the request journal are kept only with it, since without one nothing can
    /// read them.
    public static func oneRoute(listen: String, upstreamURL: String, admin: String? = nil) throws(ConfigErrors) -> ProxyConfig {
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
        let adminConfig = admin.flatMap { readAdminFlag($0, token: nil, configDirectory: nil, &diagnostics) }
        guard let address, let url, diagnostics.errors.isEmpty else {
            throw ConfigErrors(errors: diagnostics.errors, file: nil)
        }
        let upstream = UpstreamConfig(
            name: "default", scheme: url.scheme, host: url.host, port: url.port, hostHeader: .upstream)
        return ProxyConfig(
            listeners: [ListenerConfig(address: address)],
            admin: adminConfig,
            upstreams: [upstream],
            routes: [RouteConfig(name: "default", upstream: upstream.name)],
            har: HARConfig(enabled: adminConfig != nil),
            journal: JournalConfig(capacity: adminConfig == nil ? 0 : JournalConfig.defaultCapacity))
    }

    /// `run --config FILE --admin ADDR`: the file's admin section at another address (its
    /// token kept), or an admin API at `ADDR` when the file has none. Refused like the file's
    /// `admin.address` would be: off loopback, a token is required.
    public static func adminOverride(_ text: String, of config: ProxyConfig, configDirectory: String?) throws(ConfigErrors) -> AdminConfig {
        var diagnostics = Diagnostics()
        let admin = readAdminFlag(text, token: config.admin?.token, configDirectory: configDirectory, &diagnostics)
        guard let admin, diagnostics.errors.isEmpty else { throw ConfigErrors(errors: diagnostics.errors, file: nil) }
        return admin
    }

    static func readAdminFlag(_ text: String, token: String?, configDirectory: String?,
                                      _ diagnostics: inout Diagnostics) -> AdminConfig? {
        let address: SocketAddressSpec
        do {
            address = try SocketAddressSpec(parsing: text)
        } catch {
            diagnostics.add("--admin", error)
            return nil
        }
        let admin = AdminConfig(address: address, token: token, configDirectory: configDirectory)
        guard token != nil || admin.isLoopback else {
            diagnostics.add("--admin", "expected a loopback address (127.0.0.1:PORT, [::1]:PORT, localhost:PORT) when no admin.token is set, got \(JSONValue.quoted(text)); anyone on the network could change rules: bind 127.0.0.1, or use a config file with admin.token")
            return nil
        }
        return admin
    }
}
