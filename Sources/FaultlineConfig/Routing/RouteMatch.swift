/// The conditions of a route; a nil condition matches anything.
public struct RouteMatch: Sendable, Equatable {
    /// Host the request must be addressed to.
    public let host: HostPattern?
    /// Accepted methods, compared case-sensitively.
    public let methods: [String]?
    /// Path condition (query excluded).
    public let path: PathPattern?

    /// Creates a match; the default matches every request.
    public init(host: HostPattern? = nil, methods: [String]? = nil, path: PathPattern? = nil) {
        self.host = host
        self.methods = methods
        self.path = path
    }
}
