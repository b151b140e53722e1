import Foundation
import FaultlineIO
import FaultlineConfig
import FaultlineHTTP
import FaultlineTLS

/// A validated configuration compiled for the hot path: routes into a matcher, upstream names
/// into resolved addresses, certificates and trust into TLS contexts, pins into digests.
/// Immutable; swapped whole on reload, so an exchange that started on one snapshot finishes
/// on it (and a reload is also how new certificates are picked up). Its lifecycle:
/// docs/architecture.md, "Config snapshot lifecycle".
public final class ConfigSnapshot: Sendable {
    /// The configuration it was compiled from.
    public let config: ProxyConfig
    /// The compiled route table.
    public let routes: RouteTable
    /// Increases by one on every successful reload.
    public let generation: Int
    /// Per upstream name, its resolved address and TLS settings: one lookup per request.
    private let endpoints: [String: UpstreamPool.Key]
    /// Per listener (same order as the config), the TLS context if the listener speaks TLS.
    let listenerTLS: [TLSServerContext?]
    /// Per listener, the interception context of a forward-proxy listener (its CA and leaf
    /// cache), kept across reloads while the CA files stay the same.
    let interceptors: [TLSInterceptor?]
    /// Decides which faults fire; its counters live as long as this snapshot.
    public let faults: FaultDecider
    /// Bodies of status faults that name a file, read once here rather than per request.
    let faultBodies: [String: [UInt8]]
    /// Where exchange, pin, TLS and fault records go, and how they are redacted.
    let log: TrafficLog
    /// Warnings from the app pin files upstreams name (read at each compile, so a reload
    /// picks up a changed file); `check-config` prints them, the proxy reports them.
    public let appPinWarnings: [AppPinWarning]

    /// Compiles `config`: resolves every upstream host (blocking; never on an event loop) and
    /// loads every certificate, key and CA file. Every problem is reported with its field path.
    /// `previous` is the snapshot this one replaces: unchanged fault rules keep their counters.
    /// `confinedBodyFiles` are the body files of rules from the admin API: each must still
    /// resolve inside the config directory (`config.admin?.configDirectory`) when read here.
    public init(config: ProxyConfig, generation: Int, previous: ConfigSnapshot? = nil,
                confinedBodyFiles: Set<String> = []) throws(ConfigErrors) {
        var addresses: [String: SocketAddress] = [:]
        var security: [String: UpstreamSecurity] = [:]
        let appPins = Self.appPinRules(config)
        var errors = appPins.errors
        for upstream in config.upstreams {
            do {
                addresses[upstream.name] = try SocketAddress.resolve(host: upstream.host, port: upstream.port)
            } catch {
                errors.append(ConfigError(path: "upstreams.\(upstream.name).url",
                                          message: "cannot resolve host \"\(upstream.host)\": \(error)"))
            }
            if let tls = upstream.tls {
                do {
                    security[upstream.name] = try UpstreamSecurity(upstream: upstream, tls: tls, appPins: appPins.rules[upstream.name])
                } catch {
                    errors.append(ConfigError(path: "upstreams.\(upstream.name).trust", message: "\(error)"))
                }
            }
        }
        var listenerTLS: [TLSServerContext?] = []
        for (index, listener) in config.listeners.enumerated() {
            guard let tls = listener.tls else {
                listenerTLS.append(nil)
                continue
            }
            do {
                listenerTLS.append(try Self.serverContext(tls))
            } catch {
                listenerTLS.append(nil)
                errors.append(ConfigError(path: "listeners[\(index)].tls", message: "\(error)"))
            }
        }
        var interceptors: [TLSInterceptor?] = []
        for (index, listener) in config.listeners.enumerated() {
            guard let forward = listener.forward else {
                interceptors.append(nil)
                continue
            }
            if let kept = previous?.interceptor(certificate: forward.caCertificatePath, key: forward.caKeyPath) {
                interceptors.append(kept)
                continue
            }
            if !FileManager.default.fileExists(atPath: forward.caCertificatePath)
                && !FileManager.default.fileExists(atPath: forward.caKeyPath) {
                // Not minted yet: `faultline run` mints it before starting (check-config only
                // looks); a CONNECT to intercept without one gets 502.
                interceptors.append(nil)
                continue
            }
            do {
                interceptors.append(try TLSInterceptor(caCertificateFile: forward.caCertificatePath, caKeyFile: forward.caKeyPath))
            } catch {
                interceptors.append(nil)
                errors.append(ConfigError(path: "listeners[\(index)].forward.ca", message: "\(error)"))
            }
        }
        var faultBodies: [String: [UInt8]] = [:]
        for (routeIndex, route) in config.routes.enumerated() {
            for (faultIndex, fault) in route.faults.enumerated() {
                guard case .status(let status) = fault.kind, case .file(let path) = status.body else { continue }
                let confined = confinedBodyFiles.contains(path)
                // No config directory: an admin rule may name no file at all ("/" never matches).
                let root = confined ? (config.admin?.configDirectory ?? "/nonexistent-config-directory") : nil
                switch FileBytes.read(path, within: root) {
                case .success(let bytes):
                    faultBodies[path] = bytes
                case .failure(let problem):
                    errors.append(ConfigError(path: "routes[\(routeIndex)].faults[\(faultIndex)].status.body_file",
                                              message: "cannot read \"\(path)\": \(problem)"))
                }
            }
        }
        guard errors.isEmpty else { throw ConfigErrors(errors: errors, file: nil) }
        do {
            // Last, so a file is only opened for a config that is otherwise good; on reload a
            // refused file leaves the previous snapshot, and its sink, in place.
            log = try TrafficLog(config: config, previous: previous?.log)
        } catch {
            throw ConfigErrors(errors: [ConfigError(path: config.log.destination == .file ? "log.path" : "log.destination",
                                                    message: error.description)], file: nil)
        }
        self.config = config
        let routes = RouteTable(config: config)
        self.routes = routes
        self.faults = FaultDecider(seed: config.seed, routes: routes.routes, clock: FaultDecider.monotonicMilliseconds,
                                   inheriting: previous?.faults)
        self.faultBodies = faultBodies
        self.generation = generation
        var endpoints: [String: UpstreamPool.Key] = [:]
        for (name, address) in addresses { endpoints[name] = UpstreamPool.Key(address: address, security: security[name]) }
        self.endpoints = endpoints
        self.listenerTLS = listenerTLS
        self.interceptors = interceptors
        interceptorFiles = config.listeners.map { $0.forward.map { [$0.caCertificatePath, $0.caKeyPath] } ?? [] }
        appPinWarnings = appPins.warnings
    }

    private let interceptorFiles: [[String]]

    /// This snapshot's interception context for the CA at `certificate` / `key`, if it has one.
    func interceptor(certificate: String, key: String) -> TLSInterceptor? {
        interceptorFiles.firstIndex(of: [certificate, key]).flatMap { interceptors[$0] }
    }

    /// Whether a listener is a forward proxy.
    var servesForwardProxy: Bool { config.listeners.contains { $0.forward != nil } }

    /// The upstream labels `GET /metrics` keeps: every configured upstream, and `forward`
    /// for the hosts forward-proxy clients name when a listener is a forward proxy.
    var metricsUpstreamNames: Set<String> {
        Set(config.upstreams.map(\.name) + (servesForwardProxy ? [ProxyMetrics.forwardUpstream] : []))
    }

    /// The upstream configured for exactly this host, port and scheme: its settings (and
    /// pins) apply to a forward-proxy client's requests to that host.
    func configuredUpstream(for target: ForwardTarget, tls: Bool) -> UpstreamConfig? {
        config.upstreams.first { $0.host == target.host && $0.port == target.port && $0.isTLS == tls }
    }

    /// The resolved address of the upstream named `name` and its TLS settings (nil for http).
    func endpoint(ofUpstream name: String) -> UpstreamPool.Key? {
        endpoints[name]
    }

    /// The TLS settings of the upstream named `name`, if it is https.
    func security(ofUpstream name: String) -> UpstreamSecurity? {
        endpoints[name]?.security
    }

    /// A drill certificate replaces the normal one, so a team can prove their app refuses it.
    private static func serverContext(_ tls: ListenerTLSConfig) throws(TLSConfigurationError) -> TLSServerContext {
        var names: [String: TLSCertificateFiles] = [:]
        for entry in tls.sni {
            let files = entry.drill.map { TLSCertificateFiles(certificateChainFile: $0.certificate, privateKeyFile: $0.key) }
                ?? TLSCertificateFiles(certificateChainFile: entry.certificate, privateKeyFile: entry.key)
            names[entry.serverName.description] = files
        }
        return try TLSServerContext(certificateChainFile: tls.drill?.certificate ?? tls.certificate,
                                    privateKeyFile: tls.drill?.key ?? tls.key,
                                    alpnProtocols: tls.alpn, serverNames: names,
                                    minimumVersion: tls.minVersion.tlsVersion)
    }
}
