import FaultlineIO
import FaultlineRules

/// A validated configuration compiled for the hot path: routes into a matcher, upstream names
/// into resolved addresses. Immutable; swapped whole on reload, so an exchange that started
/// on one snapshot finishes on it.
public final class ConfigSnapshot: Sendable {
    /// The configuration it was compiled from.
    public let config: ProxyConfig
    /// The compiled route table.
    public let routes: RouteTable
    /// Increases by one on every successful reload.
    public let generation: Int
    private let addresses: [String: SocketAddress]

    /// Compiles `config`, resolving every upstream host (blocking; never on an event loop).
    public init(config: ProxyConfig, generation: Int) throws(ConfigErrors) {
        var addresses: [String: SocketAddress] = [:]
        var errors: [ConfigError] = []
        for upstream in config.upstreams {
            do {
                addresses[upstream.name] = try SocketAddress.resolve(host: upstream.host, port: upstream.port)
            } catch {
                errors.append(ConfigError(path: "upstreams.\(upstream.name).url",
                                          message: "cannot resolve host \"\(upstream.host)\": \(error)"))
            }
        }
        guard errors.isEmpty else { throw ConfigErrors(errors: errors, file: nil) }
        self.config = config
        self.routes = RouteTable(config: config)
        self.generation = generation
        self.addresses = addresses
    }

    /// The resolved address of the upstream named `name`.
    func address(ofUpstream name: String) -> SocketAddress? {
        addresses[name]
    }
}
