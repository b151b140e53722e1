/// The bounds of `faultline_request_duration_seconds`: 1 ms to 10 s, the range between a
/// cache hit and a `timeouts_ms.response` outage. Kept in nanoseconds so that placing a
/// duration compares integers; the `le` labels are the same bounds in seconds.
enum LatencyBuckets {
    /// Upper bounds in nanoseconds, ascending; `+Inf` is implied (the count).
    static let nanoseconds: [UInt64] = [
        1_000_000, 2_500_000, 5_000_000, 10_000_000, 25_000_000, 50_000_000,
        100_000_000, 250_000_000, 500_000_000, 1_000_000_000, 2_500_000_000, 5_000_000_000, 10_000_000_000,
    ]

    /// The `le` label of each bound, in the same order.
    static let labels = ["0.001", "0.0025", "0.005", "0.01", "0.025", "0.05", "0.1", "0.25", "0.5", "1", "2.5", "5", "10"]

    /// How many finite bounds there are.
    static var count: Int { nanoseconds.count }

    /// The first bucket `duration` falls in, or nil beyond the last finite bound.
    @inline(__always)
    static func index(of duration: UInt64) -> Int? {
        // Most exchanges land in the first few buckets: a linear scan beats a binary search here.
        var index = 0
        while index < nanoseconds.count {
            if duration <= nanoseconds[index] { return index }
            index += 1
        }
        return nil
    }
}
