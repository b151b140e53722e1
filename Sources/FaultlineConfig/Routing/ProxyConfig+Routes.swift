extension ProxyConfig {
    /// The same configuration with `routes` in place of its routes (the admin API's runtime
    /// rules laid over the file's).
    public func replacingRoutes(_ routes: [RouteConfig]) -> ProxyConfig {
        var copy = self
        copy.routes = routes
        return copy
    }
}
