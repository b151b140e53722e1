/// Percentiles and summaries for timing assertions (nearest-rank on sorted samples).
enum FaultStatistics {
    static func percentile(_ values: [Double], _ p: Double) -> Double {
        precondition(!values.isEmpty)
        let sorted = values.sorted()
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    static func median(_ values: [Double]) -> Double { percentile(values, 50) }

    /// "min / p50 / p99 / max" in milliseconds.
    static func summary(_ seconds: [Double]) -> String {
        func ms(_ value: Double) -> String { String(format: "%.2f", value * 1000) }
        return "min \(ms(seconds.min() ?? 0)) / p50 \(ms(median(seconds))) / p99 \(ms(percentile(seconds, 99))) / max \(ms(seconds.max() ?? 0)) ms (n=\(seconds.count))"
    }
}
