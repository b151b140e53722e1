import FaultlineSync
import Synchronization

/// A bounded, ordered record of exchanges (a session's, or every exchange of the proxy):
/// the newest `capacity` entries in a ring, with a count of those pushed out. Appended from
/// the event loops when an exchange's record ends, read by the admin API.
final class RequestJournal: Sendable {
    private struct Ring {
        var capacity: Int
        var entries: [JournalEntry] = []
        /// Index of the oldest entry once the ring is full.
        var head = 0
        var nextSeq = 1
        var dropped = 0
        /// Entries in the ring per request, so a new entry's `retry` costs one lookup and the
        /// table never holds more keys than the ring holds entries.
        var counts: [JournalEntry.RequestKey: Int] = [:]

        // Each hashes the key once: a lookup followed by an assignment would hash the
        // method, path and query twice, for every exchange.
        mutating func count(_ key: JournalEntry.RequestKey) -> Int {
            var earlier = 0
            func increment(_ count: inout Int) {
                earlier = count
                count += 1
            }
            increment(&counts[key, default: 0])
            return earlier
        }

        /// Uncounts the entry at `position`, read where it lies: a copy of it would retain
        /// and release each of its strings.
        mutating func uncount(at position: Int) {
            guard let index = counts.index(forKey: entries[position].requestKey) else { return }
            if counts.values[index] > 1 {
                counts.values[index] -= 1
            } else {
                counts.remove(at: index)
            }
        }
    }

    /// Monotonic time (ns) `start_ms` counts from.
    let origin: UInt64
    private let ring: TracedMutex<Ring>
    /// The ring's capacity, readable without the lock (every exchange asks).
    private let capacity: Atomic<Int>

    init(capacity: Int, origin: UInt64) {
        self.origin = origin
        ring = TracedMutex(Ring(capacity: max(0, capacity)))
        self.capacity = Atomic(max(0, capacity))
    }

    /// Whether entries are kept at all.
    var isOn: Bool { capacity.load(ordering: .relaxed) > 0 }

    /// Adds `entry`, numbering it and measuring its start from `origin`; the oldest entry
    /// makes room when the ring is full.
    func append(_ entry: consuming JournalEntry) {
        entry.startMs = entry.startNs >= origin ? Double(entry.startNs - origin) / 1_000_000 : 0
        let key = entry.requestKey
        // Moved into the ring, never copied (a copy retains and releases each of the
        // entry's strings); the oldest entry comes back in its place and is freed after the
        // lock is released.
        var moving: JournalEntry? = consume entry
        ring.withLock { ring in
            guard ring.capacity > 0, var entry = moving.take() else { return }
            entry.seq = ring.nextSeq
            ring.nextSeq += 1
            if ring.entries.count < ring.capacity {
                entry.retry = ring.count(key)
                ring.entries.append(consume entry)
            } else {
                ring.uncount(at: ring.head)
                entry.retry = ring.count(key)
                swap(&ring.entries[ring.head], &entry)
                moving = consume entry
                ring.head = (ring.head + 1) % ring.capacity
                ring.dropped += 1
            }
        }
    }

    /// The entries `filter` selects, oldest first, and how many entries were dropped so far.
    func entries(matching filter: JournalFilter) -> (entries: [JournalEntry], dropped: Int) {
        let (ordered, dropped) = ring.withLock { ring in
            (Array(ring.entries[ring.head...] + ring.entries[..<ring.head]), ring.dropped)
        }
        var selected = ordered.filter(filter.matches)
        if let limit = filter.limit, selected.count > limit { selected.removeFirst(selected.count - limit) }
        return (selected, dropped)
    }

    /// Entries kept now.
    var count: Int { ring.withLock { $0.entries.count } }

    /// Forgets every entry; numbering and the dropped count start again.
    func clear() {
        ring.withLock { ring in ring = Ring(capacity: ring.capacity) }
    }

    /// Changes the capacity (a reload), keeping the newest entries that fit.
    func resize(to capacity: Int) {
        ring.withLock { ring in
            let capacity = max(0, capacity)
            guard capacity != ring.capacity else { return }
            self.capacity.store(capacity, ordering: .relaxed)
            var ordered = Array(ring.entries[ring.head...] + ring.entries[..<ring.head])
            let excess = max(0, ordered.count - capacity)
            ordered.removeFirst(excess)
            ring = Ring(capacity: capacity, entries: ordered, head: 0, nextSeq: ring.nextSeq, dropped: ring.dropped + excess)
            for entry in ordered { _ = ring.count(entry.requestKey) }
        }
    }
}
