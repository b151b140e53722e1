/// One routing rule: which requests it takes and where they go.
public struct RouteConfig: Sendable, Equatable {
    /// The most faults one rule holds (config file, admin API, sessions alike): each is a
    /// `faultline_faults_fired_total` series, so this bounds what one rule adds to a scrape.
    public static let maxFaults = 64

    /// Unique name, used in logs and the admin API.
    public let name: String
    /// Conditions a request must meet.
    public let match: RouteMatch
    /// Name of the upstream requests are forwarded to.
    public let upstream: String
    /// Faults to inject, in declaration order (the decider applies them in composition order).
    public let faults: [FaultSpec]

    /// Creates a route.
    public init(name: String, match: RouteMatch = RouteMatch(), upstream: String, faults: [FaultSpec] = []) {
        self.name = name
        self.match = match
        self.upstream = upstream
        self.faults = faults
    }
}
