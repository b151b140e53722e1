import FaultlineSync

/// One event loop's share of `GET /metrics`: its request counts and latency histograms
/// (`RouteMetricsTable`) and its idle upstream pool sizes.
///
/// Only its loop writes it, and only a scrape reads it, so its lock is uncontended on the
/// request path (no counter shared between loops bounces between cores); a scrape adds the
/// loops' shards up by route name.
final class LoopMetrics: Sendable {
    /// What the lock guards.
    private struct Shard {
        var routes: RouteMetricsTable
        /// Idle HTTP/1 connections per upstream name, as of the loop's last sweep.
        var idle: [(upstream: String, count: Int)] = []
    }

    private let shard: TracedMutex<Shard>

    /// A shard for routes named `routes` (in route index order).
    init(routes: [String]) {
        shard = TracedMutex(Shard(routes: RouteMetricsTable(routes: routes)))
    }

    /// Counts one exchange that ended (see `RouteMetricsTable.record`); on the loop.
    @inline(__always)
    func record(routeIndex: Int, routeName: String, status: Int?, nanoseconds: UInt64) {
        shard.withLock { $0.routes.record(routeIndex: routeIndex, routeName: routeName, status: status, nanoseconds: nanoseconds) }
    }

    /// The loop took a new snapshot whose routes are named `routes`: counts follow their names.
    func rebase(routes: [String]) {
        shard.withLock { $0.routes = $0.routes.rebased(routes: routes) }
    }

    /// The loop's idle connections per upstream now.
    func publishIdle(_ idle: [(upstream: String, count: Int)]) {
        shard.withLock { $0.idle = idle }
    }

    /// Adds this shard's rows to `routes` (by name), its idle counts to `idle`; returns its
    /// untracked exchanges.
    func collect(routes: inout [String: RouteTraffic], idle: inout [String: Int]) -> Int {
        // Copied out under the lock, added up outside it: the loop waits for a copy only.
        let (traffic, pools, untracked) = shard.withLock { ($0.routes.traffic, $0.idle, $0.routes.untracked) }
        for row in traffic { routes[row.name, default: RouteTraffic(name: row.name)].add(row) }
        for pool in pools { idle[pool.upstream, default: 0] += pool.count }
        return untracked
    }
}
