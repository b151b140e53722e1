import FaultlineLog
import FaultlineSync
import Synchronization

/// The dashboard's view of traffic: the newest exchange records (already redacted by the
/// log policy) in a fixed ring, numbered, plus per-second traffic figures. The loops append
/// one record per ended exchange under a short lock; readers (the admin queue, one cursor
/// per live stream) copy out what they need. Nothing here grows with the number of
/// dashboard clients: a slow client only falls behind and is told how many it missed.
final class LiveFeed: Sendable {
    /// Records kept for the page's "recent exchanges" and for stream cursors.
    static let capacity = 1024

    private struct Ring {
        /// Slot `seq % capacity` holds record `seq`; preallocated, so an append never grows it.
        var slots: [LiveRecord?] = Array(repeating: nil, count: LiveFeed.capacity)
        /// The number the next record gets (1 for the first).
        var nextSeq = 1
        var traffic = LiveTraffic()
    }

    private let ring = TracedMutex(Ring())
    /// Whether records are kept: on once an admin listener exists (nothing reads them otherwise).
    private let on = Atomic(false)
    /// Live streams attached now.
    private let watchers = Atomic(0)

    init() {}

    /// Starts keeping records (the admin listener is up).
    func switchOn() { on.store(true, ordering: .relaxed) }

    /// Whether a dashboard is watching the live stream: exchanges are then recorded even
    /// when the log, the HAR capture and the journal are all off (one atomic load per exchange).
    var isWatched: Bool { watchers.load(ordering: .relaxed) > 0 }

    /// A live stream attached (`true`) or left (`false`).
    func watch(_ attached: Bool) { watchers.add(attached ? 1 : -1, ordering: .relaxed) }

    /// Keeps `record` of an exchange that ended at monotonic time `now` (ns). Called on the
    /// loops; constant work whatever the number of dashboard clients.
    func publish(_ record: LogRecord, now: UInt64) {
        guard on.load(ordering: .relaxed) else { return }
        // The record pushed out is released after the lock, not under it.
        let evicted: LiveRecord? = ring.withLock { ring in
            let seq = ring.nextSeq
            ring.nextSeq += 1
            let slot = seq % Self.capacity
            let old = ring.slots[slot]
            ring.slots[slot] = LiveRecord(seq: seq, record: record)
            ring.traffic.count(record, now: now)
            return old
        }
        _ = evicted
    }

    /// Records after `seq`, oldest first: at most `limit`; when more are waiting, those whose
    /// number is a multiple of the smallest power of two that brings them under `limit`, so
    /// streams at different cursors pick the same records (and share their encoding).
    /// `skipped` counts those not returned (sampled out, or overwritten before they were
    /// read); `last` is the newest number considered (the next cursor).
    func records(after seq: Int, limit: Int) -> (records: [LiveRecord], skipped: Int, last: Int) {
        ring.withLock { ring in
            let newest = ring.nextSeq - 1
            // A cursor from the future (a page that outlived a restart) starts at the newest.
            let seq = min(max(0, seq), newest)
            let oldest = max(1, newest - Self.capacity + 1)
            let from = max(seq + 1, oldest)
            let lost = max(0, from - (seq + 1))
            guard from <= newest, limit > 0 else { return ([], lost, newest) }
            let available = newest - from + 1
            var picked: [LiveRecord] = []
            picked.reserveCapacity(min(available, limit))
            if available <= limit {
                for number in from...newest { if let record = ring.slots[number % Self.capacity] { picked.append(record) } }
            } else {
                var stride = 2
                while (available + stride - 1) / stride > limit { stride *= 2 }
                var number = (from + stride - 1) / stride * stride
                while number <= newest {
                    if let record = ring.slots[number % Self.capacity] { picked.append(record) }
                    number += stride
                }
            }
            return (picked, lost + available - picked.count, newest)
        }
    }

    /// The newest `limit` records, oldest first.
    func recent(limit: Int) -> [LiveRecord] {
        let newest = ring.withLock { $0.nextSeq - 1 }
        return records(after: max(0, newest - max(0, limit)), limit: Self.capacity).records
    }

    /// Record `seq` if it is still in the ring.
    func record(_ seq: Int) -> LiveRecord? {
        ring.withLock { ring in
            guard seq >= 1, seq < ring.nextSeq else { return nil }
            guard let record = ring.slots[seq % Self.capacity], record.seq == seq else { return nil }
            return record
        }
    }

    /// Traffic per second over the last `seconds` (at most `LiveTraffic.window`), ending at `now`.
    func traffic(seconds: Int, now: UInt64) -> [LiveTraffic.Second] {
        ring.withLock { $0.traffic.series(seconds: seconds, now: now) }
    }

    /// Merged latency histogram of the last `seconds` seconds.
    func histogram(seconds: Int, now: UInt64) -> [UInt32] {
        ring.withLock { $0.traffic.histogram(seconds: seconds, now: now) }
    }

    /// Records kept so far, for the overview.
    var published: Int { ring.withLock { $0.nextSeq - 1 } }
}

/// One exchange's record as the feed keeps it.
struct LiveRecord: Sendable {
    /// 1, 2, … in the order exchanges ended.
    let seq: Int
    let record: LogRecord
}
