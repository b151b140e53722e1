/// Counters of one fault of one route, as read by `FaultDecider.stats()`.
public struct FaultStats: Sendable, Equatable {
    /// Index of the route in its table.
    public let routeIndex: Int
    /// Name of the route.
    public let routeName: String
    /// Position of the fault in the route's `faults`.
    public let faultIndex: Int
    /// Name of the fault.
    public let faultName: String
    /// Requests that matched the route while the fault was enabled.
    public let matched: Int
    /// Requests the fault fired on.
    public let fired: Int
    /// Injections in progress.
    public let active: Int

    /// Creates a stats row.
    public init(routeIndex: Int, routeName: String, faultIndex: Int, faultName: String, matched: Int, fired: Int, active: Int) {
        self.routeIndex = routeIndex
        self.routeName = routeName
        self.faultIndex = faultIndex
        self.faultName = faultName
        self.matched = matched
        self.fired = fired
        self.active = active
    }
}
