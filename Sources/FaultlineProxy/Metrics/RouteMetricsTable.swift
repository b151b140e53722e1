/// One event loop's request counts and latency histograms, one row per route name, in flat
/// arrays sized when the loop's configuration changes, so recording an exchange allocates
/// nothing.
///
/// Rows: the loop's current snapshot's routes by route index, then the row of requests no
/// route took (name ""), then up to `maxExtraRows` rows for other names (a route a reload
/// removed while its exchanges were in flight, a session's own rule). An exchange counts in
/// the row at its route's index only if that row carries its route's name; otherwise its
/// name is looked up. So two routes' counts never mix, whatever reloads renumber, and a
/// name's counts carry over a reload (`rebased(routes:)`) as long as the name stays
/// configured. Extra rows are dropped at each rebase; beyond `maxExtraRows` an exchange
/// counts as untracked only. Statuses: exact codes, at most `statusSlots` distinct ones per
/// row; more go to "other".
struct RouteMetricsTable {
    /// Distinct status codes kept per route and loop.
    static let statusSlots = 16
    /// Rows for names outside the current snapshot, per loop.
    static let maxExtraRows = 64

    /// The name of each row.
    private(set) var names: [String]
    /// How many rows the snapshot's routes take (the unrouted row follows them).
    private let routeCount: Int
    /// Rows found by name (the slow path), at most `routeCount + maxExtraRows` entries.
    private var rowsByName: [String: Int] = [:]
    /// `statusSlots` codes per row; 0 marks a free slot.
    private var codes: [Int]
    private var codeCounts: [Int]
    private var otherStatuses: [Int]
    private var noStatus: [Int]
    /// `LatencyBuckets.count` counts per row, not cumulative.
    private var buckets: [Int]
    private var sums: [UInt64]
    private var counts: [Int]
    /// Exchanges not counted because no row was left for their route's name.
    private(set) var untracked = 0

    /// A table for routes named `routes`, in route index order, with every count at zero.
    init(routes: [String]) {
        routeCount = routes.count
        names = routes + [""]
        let rows = names.count
        codes = Array(repeating: 0, count: rows * Self.statusSlots)
        codeCounts = codes
        otherStatuses = Array(repeating: 0, count: rows)
        noStatus = otherStatuses
        counts = otherStatuses
        buckets = Array(repeating: 0, count: rows * LatencyBuckets.count)
        sums = Array(repeating: 0, count: rows)
    }

    /// The row of requests no route took.
    private var unroutedRow: Int { routeCount }

    /// Counts one exchange that ended: `routeIndex` and `routeName` of its route (-1 and ""
    /// when it had none), the status its client got and how long it took.
    @inline(__always)
    mutating func record(routeIndex: Int, routeName: String, status: Int?, nanoseconds: UInt64) {
        let row: Int
        if routeIndex >= 0 && routeIndex < routeCount && names[routeIndex] == routeName {
            row = routeIndex
        } else if routeIndex < 0 {
            row = unroutedRow
        } else if let found = rowFound(named: routeName) {
            row = found
        } else {
            untracked += 1
            return
        }
        tally(status: status, row: row, times: 1)
        if let bucket = LatencyBuckets.index(of: nanoseconds) { buckets[row * LatencyBuckets.count + bucket] += 1 }
        sums[row] &+= nanoseconds
        counts[row] += 1
    }

    private mutating func tally(status: Int?, row: Int, times: Int) {
        guard let status, status > 0 else {
            noStatus[row] += times
            return
        }
        let base = row * Self.statusSlots
        for slot in base..<base + Self.statusSlots {
            if codes[slot] == status {
                codeCounts[slot] += times
                return
            }
            if codes[slot] == 0 {
                codes[slot] = status
                codeCounts[slot] = times
                return
            }
        }
        otherStatuses[row] += times
    }

    /// The row of `name` when its exchange's route index did not lead to it (an exchange that
    /// started before a reload, a session's rule): a route of the snapshot under another
    /// index, or an extra row, made on first use while rows are left.
    private mutating func rowFound(named name: String) -> Int? {
        if let row = rowsByName[name] { return row }
        let row: Int
        if let index = names[..<routeCount].firstIndex(of: name) {
            row = index
        } else {
            guard names.count - routeCount - 1 < Self.maxExtraRows else { return nil }
            names.append(name)
            codes.append(contentsOf: repeatElement(0, count: Self.statusSlots))
            codeCounts.append(contentsOf: repeatElement(0, count: Self.statusSlots))
            otherStatuses.append(0)
            noStatus.append(0)
            buckets.append(contentsOf: repeatElement(0, count: LatencyBuckets.count))
            sums.append(0)
            counts.append(0)
            row = names.count - 1
        }
        rowsByName[name] = row
        return row
    }

    /// Row `row` as traffic of its name.
    func traffic(ofRow row: Int) -> RouteTraffic {
        var traffic = RouteTraffic(name: names[row])
        let base = row * Self.statusSlots
        for slot in base..<base + Self.statusSlots where codes[slot] != 0 {
            traffic.statuses[codes[slot], default: 0] += codeCounts[slot]
        }
        traffic.otherStatuses = otherStatuses[row]
        traffic.noStatus = noStatus[row]
        traffic.buckets = Array(buckets[row * LatencyBuckets.count..<(row + 1) * LatencyBuckets.count])
        traffic.sumNanoseconds = sums[row]
        traffic.count = counts[row]
        return traffic
    }

    /// Every row's traffic.
    var traffic: [RouteTraffic] { names.indices.map(traffic(ofRow:)) }

    /// A table for the routes of a new snapshot: each name still configured (and the
    /// unrouted row) keeps its counts, whatever its new index; other names are dropped.
    func rebased(routes: [String]) -> RouteMetricsTable {
        var table = RouteMetricsTable(routes: routes)
        table.untracked = untracked
        var rowOf: [String: Int] = [:]
        for (row, name) in table.names.enumerated() { rowOf[name] = row }
        for row in 0...routeCount {
            guard let target = rowOf[names[row]] else { continue }
            table.absorb(traffic(ofRow: row), into: target)
        }
        return table
    }

    private mutating func absorb(_ traffic: RouteTraffic, into row: Int) {
        for (status, times) in traffic.statuses.sorted(by: { $0.key < $1.key }) { tally(status: status, row: row, times: times) }
        otherStatuses[row] += traffic.otherStatuses
        noStatus[row] += traffic.noStatus
        for index in 0..<LatencyBuckets.count { buckets[row * LatencyBuckets.count + index] += traffic.buckets[index] }
        sums[row] &+= traffic.sumNanoseconds
        counts[row] += traffic.count
    }
}
