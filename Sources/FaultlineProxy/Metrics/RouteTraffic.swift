/// What `GET /metrics` shows of one route: requests by the status the client got and their
/// durations. The sum of one or more event loops' rows of that route name.
struct RouteTraffic: Equatable {
    /// The route's name; "" for requests no route took (refused before routing).
    let name: String
    /// Requests by exact status code.
    var statuses: [Int: Int] = [:]
    /// Requests whose status did not fit the per-route table (`RouteMetricsTable.statusSlots`).
    var otherStatuses = 0
    /// Requests whose client got no status (a reset, a close, a hang the client gave up on).
    var noStatus = 0
    /// Requests per latency bucket (not cumulative), in `LatencyBuckets` order.
    var buckets = [Int](repeating: 0, count: LatencyBuckets.count)
    /// Total duration in nanoseconds.
    var sumNanoseconds: UInt64 = 0
    /// Requests that ended (every status, "other" and "none" included).
    var count = 0

    /// No traffic yet for the route `name`.
    init(name: String) {
        self.name = name
    }

    /// Adds `other`'s counts (another loop's row of the same route) to these.
    mutating func add(_ other: RouteTraffic) {
        statuses.merge(other.statuses, uniquingKeysWith: +)
        otherStatuses += other.otherStatuses
        noStatus += other.noStatus
        for index in buckets.indices { buckets[index] += other.buckets[index] }
        sumNanoseconds &+= other.sumNanoseconds
        count += other.count
    }
}
