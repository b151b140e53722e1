import Testing
@testable import FaultlineProxy
import FaultlineLog

/// The dashboard's live feed: a fixed ring with numbered records, cursors that learn how
/// many they missed, even sampling when a batch would be too long, and per-second traffic.
@Suite("Live feed")
struct LiveFeedTests {
    private static func record(_ path: String, status: Int? = 200, totalMs: Double = 5) -> LogRecord {
        var record = LogRecord(kind: .exchange)
        record.setTarget(path, policy: LogPolicy())
        record.statusCode = status
        record.totalMs = totalMs
        return record
    }

    private static let second: UInt64 = 1_000_000_000

    @Test func keepsNothingUntilSwitchedOn() {
        let feed = LiveFeed()
        feed.publish(Self.record("/a"), now: 10 * Self.second)
        #expect(feed.published == 0)
        feed.switchOn()
        feed.publish(Self.record("/a"), now: 10 * Self.second)
        #expect(feed.published == 1)
        #expect(feed.record(1)?.record.path == "/a")
    }

    @Test func aCursorGetsWhatFollowsItAndCountsWhatTheRingOverwrote() {
        let feed = LiveFeed()
        feed.switchOn()
        for index in 1...10 { feed.publish(Self.record("/p\(index)"), now: Self.second) }
        let batch = feed.records(after: 7, limit: 100)
        #expect(batch.records.map(\.seq) == [8, 9, 10])
        #expect(batch.skipped == 0 && batch.last == 10)
        #expect(feed.records(after: 10, limit: 100).records.isEmpty)
        // A cursor past the newest (the page outlived a restart) restarts at the newest.
        let future = feed.records(after: 500, limit: 100)
        #expect(future.records.isEmpty && future.skipped == 0 && future.last == 10)

        let more = LiveFeed.capacity + 5
        for index in 11...(10 + more) { feed.publish(Self.record("/q\(index)"), now: Self.second) }
        let behind = feed.records(after: 10, limit: LiveFeed.capacity)
        // Five records were overwritten before this cursor read them.
        #expect(behind.skipped == 5)
        #expect(behind.records.count == LiveFeed.capacity)
        #expect(behind.records.first?.seq == 16 && behind.last == 10 + more)
        #expect(feed.record(11) == nil)
        #expect(feed.record(10 + more)?.seq == 10 + more)
    }

    @Test func aLongBatchIsSampledOnAGridSharedByEveryCursor() {
        let feed = LiveFeed()
        feed.switchOn()
        for index in 1...100 { feed.publish(Self.record("/p\(index)"), now: Self.second) }
        let batch = feed.records(after: 0, limit: 10)
        // 100 waiting, at most 10: every 16th (the smallest power of two that fits).
        #expect(batch.records.map(\.seq) == [16, 32, 48, 64, 80, 96])
        #expect(batch.skipped == 94 && batch.last == 100)
        // Another cursor picks the same numbers where they overlap.
        #expect(feed.records(after: 20, limit: 10).records.map(\.seq) == [24, 32, 40, 48, 56, 64, 72, 80, 88, 96])
        #expect(feed.recent(limit: 3).map(\.seq) == [98, 99, 100])
    }

    @Test func trafficCountsRequestsErrorsAndPercentilesPerSecond() throws {
        let feed = LiveFeed()
        feed.switchOn()
        let now = 1000 * Self.second
        for _ in 0..<98 { feed.publish(Self.record("/ok", totalMs: 2), now: now) }
        feed.publish(Self.record("/down", status: 503, totalMs: 2), now: now)
        feed.publish(Self.record("/reset", status: nil, totalMs: 900), now: now)
        feed.publish(Self.record("/earlier"), now: now - 3 * Self.second)
        let series = feed.traffic(seconds: 5, now: now)
        #expect(series.map(\.ago) == [4, 3, 2, 1, 0])
        #expect(series.map(\.requests) == [0, 1, 0, 0, 100])
        #expect(series.last?.errors == 2)
        let p50 = try #require(series.last?.p50Ms)
        let p99 = try #require(series.last?.p99Ms)
        // Bucket bounds: within 40 % above the true value.
        #expect(p50 >= 2 && p50 < 2.8)
        #expect(p99 >= 2 && p99 < 2.8)
        #expect(LiveTraffic.percentile(1.0, feed.histogram(seconds: 1, now: now)) ?? 0 >= 900)
        // A slot from a second that left the window reads as empty.
        #expect(feed.traffic(seconds: 1, now: now + UInt64(LiveTraffic.window) * Self.second).first?.requests == 0)
    }
}
