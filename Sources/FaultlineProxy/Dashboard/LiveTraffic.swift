import FaultlineLog

/// Requests, errors and a latency histogram per second over the last `window` seconds, for
/// the dashboard's overview. Fixed-size flat arrays: counting an exchange never allocates.
/// Latencies fall in exponential buckets (each 1.4 times the last, from 0.1 ms), so a
/// percentile is the upper bound of its bucket: within 40 %, enough for a chart.
struct LiveTraffic: Sendable {
    /// Seconds kept.
    static let window = 300
    /// Latency buckets; the last one is open-ended.
    static let buckets = 40
    /// Upper bound (ms) of each bucket but the last.
    static let bounds: [Double] = (0..<(buckets - 1)).map { 0.1 * pow14($0) }

    /// One second's figures.
    struct Second: Sendable, Encodable {
        /// Seconds before now (0 = the current, partial second).
        let ago: Int
        let requests: Int
        /// Exchanges with a 5xx status, or with no response at all (reset, timeout, refused).
        let errors: Int
        let p50Ms: Double?
        let p99Ms: Double?

        enum CodingKeys: String, CodingKey {
            case ago, requests, errors
            case p50Ms = "p50_ms", p99Ms = "p99_ms"
        }
    }

    /// The absolute second each slot holds (-1 = none yet).
    private var slotSecond = [Int](repeating: -1, count: window)
    private var requests = [Int](repeating: 0, count: window)
    private var errors = [Int](repeating: 0, count: window)
    private var histogram = [UInt32](repeating: 0, count: window * buckets)

    /// Counts one ended exchange (`now`: monotonic ns).
    mutating func count(_ record: LogRecord, now: UInt64) {
        let second = Int(now / 1_000_000_000)
        let slot = second % Self.window
        if slotSecond[slot] != second {
            slotSecond[slot] = second
            requests[slot] = 0
            errors[slot] = 0
            for index in slot * Self.buckets..<(slot + 1) * Self.buckets { histogram[index] = 0 }
        }
        requests[slot] += 1
        let status = record.statusCode ?? 0
        if status >= 500 || record.statusCode == nil { errors[slot] += 1 }
        let bucket = Self.bucket(of: record.totalMs ?? 0)
        histogram[slot * Self.buckets + bucket] &+= 1
    }

    /// The last `seconds` seconds (1...window), oldest first, the last one being the current.
    func series(seconds: Int, now: UInt64) -> [Second] {
        let current = Int(now / 1_000_000_000)
        let span = min(max(1, seconds), Self.window)
        return (0..<span).reversed().map { ago in
            let second = current - ago
            let slot = second % Self.window
            guard second >= 0, slotSecond[slot] == second else {
                return Second(ago: ago, requests: 0, errors: 0, p50Ms: nil, p99Ms: nil)
            }
            let counts = Array(histogram[slot * Self.buckets..<(slot + 1) * Self.buckets])
            return Second(ago: ago, requests: requests[slot], errors: errors[slot],
                          p50Ms: Self.percentile(0.5, counts), p99Ms: Self.percentile(0.99, counts))
        }
    }

    /// Merged latency histogram of the last `seconds` seconds, for percentiles over a span.
    func histogram(seconds: Int, now: UInt64) -> [UInt32] {
        let current = Int(now / 1_000_000_000)
        var merged = [UInt32](repeating: 0, count: Self.buckets)
        for ago in 0..<min(max(1, seconds), Self.window) {
            let second = current - ago
            let slot = second % Self.window
            guard second >= 0, slotSecond[slot] == second else { continue }
            for bucket in 0..<Self.buckets { merged[bucket] &+= histogram[slot * Self.buckets + bucket] }
        }
        return merged
    }

    /// The upper bound of the bucket holding quantile `q`; nil without samples.
    static func percentile(_ q: Double, _ counts: [UInt32]) -> Double? {
        let total = counts.reduce(0) { $0 + Int($1) }
        guard total > 0 else { return nil }
        let rank = max(1, Int((Double(total) * q).rounded(.up)))
        var seen = 0
        for (index, count) in counts.enumerated() {
            seen += Int(count)
            if seen >= rank { return index < bounds.count ? bounds[index] : bounds[bounds.count - 1] * 1.4 }
        }
        return nil
    }

    private static func bucket(of milliseconds: Double) -> Int {
        // Binary search over the sorted bounds.
        var low = 0
        var high = bounds.count
        while low < high {
            let middle = (low + high) / 2
            if milliseconds <= bounds[middle] { high = middle } else { low = middle + 1 }
        }
        return low
    }

    private static func pow14(_ exponent: Int) -> Double {
        var value = 1.0
        for _ in 0..<exponent { value *= 1.4 }
        return value
    }
}
