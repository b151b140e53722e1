/// The result of a route lookup: everything the proxy needs to forward the request.
///
/// A class, compiled once per snapshot: a lookup hands out one reference instead of copying
/// the upstream's whole configuration (a dozen references) into every exchange.
public final class CompiledRoute: Sendable {
    /// Position of the route in `ProxyConfig.routes`.
    public let index: Int
    /// The route's name.
    public let name: String
    /// The upstream to forward to, resolved at compile time.
    public let upstream: UpstreamConfig
    /// Faults configured on the route, in declaration order; `FaultDecider.decide(route:)` picks those that fire.
    public let faults: [FaultSpec]

    /// Creates a compiled route.
    public init(index: Int, name: String, upstream: UpstreamConfig, faults: [FaultSpec]) {
        self.index = index
        self.name = name
        self.upstream = upstream
        self.faults = faults
    }
}
