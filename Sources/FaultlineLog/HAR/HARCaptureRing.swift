/// The storage behind `HARCapture`: a circular buffer of records, oldest at `head`, bounded
/// by entry count and estimated bytes. Evicted slots are set to nil at once so their
/// strings are freed without waiting for the slot to be reused. Not thread-safe: the
/// capture guards it with a mutex.
struct HARCaptureRing {
    private struct Slot {
        let record: LogRecord
        let bytes: Int
    }

    private var slots: [Slot?] = []
    private var head = 0
    /// Records held.
    private(set) var count = 0
    /// Estimated bytes held.
    private(set) var bytes = 0
    /// Records evicted or refused since the last `removeAll`.
    private(set) var dropped = 0
    private var maxEntries: Int
    private var maxBytes: Int

    init(maxEntries: Int, maxBytes: Int) {
        self.maxEntries = max(0, maxEntries)
        self.maxBytes = max(0, maxBytes)
    }

    /// Applies new limits, evicting the oldest records that no longer fit.
    mutating func setLimits(maxEntries: Int, maxBytes: Int) {
        self.maxEntries = max(0, maxEntries)
        self.maxBytes = max(0, maxBytes)
        while count > self.maxEntries || bytes > self.maxBytes { evictOldest() }
        // A lowered entry limit should give the memory back, not just stop using it.
        if slots.count > self.maxEntries { relayout(capacity: count) }
    }

    /// Keeps `record` (of estimated size `size`), evicting the oldest records to make room;
    /// a record that could never fit is refused and counted as dropped. Returns the first
    /// record evicted, for the caller to free once it has released its lock: freeing a record
    /// (a few dozen strings) is most of the work of an append on a full ring.
    mutating func append(_ record: LogRecord, bytes size: Int) -> LogRecord? {
        guard maxEntries > 0, size <= maxBytes else {
            dropped += 1
            return nil
        }
        var evicted: LogRecord?
        while count >= maxEntries || bytes + size > maxBytes {
            let oldest = evictOldest()
            if evicted == nil { evicted = oldest }
        }
        if count == slots.count {
            // Grow geometrically up to the limit rather than reserving `maxEntries` slots
            // up front: a large limit on a quiet proxy should cost nothing.
            relayout(capacity: min(maxEntries, max(16, slots.count * 2)))
        }
        slots[(head + count) % slots.count] = Slot(record: record, bytes: size)
        count += 1
        bytes += size
        return evicted
    }

    /// The records, oldest first.
    func records() -> [LogRecord] {
        var out: [LogRecord] = []
        out.reserveCapacity(count)
        for offset in 0..<count {
            if let slot = slots[(head + offset) % slots.count] { out.append(slot.record) }
        }
        return out
    }

    /// Forgets every record and the dropped count; returns how many records were held.
    mutating func removeAll() -> Int {
        let removed = count
        slots = []
        head = 0
        count = 0
        bytes = 0
        dropped = 0
        return removed
    }

    /// Takes the oldest record out (its slot is emptied at once) and returns it.
    @discardableResult
    private mutating func evictOldest() -> LogRecord? {
        guard count > 0 else { return nil }
        let slot = slots[head].take()
        bytes -= slot?.bytes ?? 0
        head = (head + 1) % slots.count
        count -= 1
        dropped += 1
        return slot?.record
    }

    private mutating func relayout(capacity: Int) {
        var fresh = [Slot?](repeating: nil, count: capacity)
        for offset in 0..<count {
            fresh[offset] = slots[(head + offset) % slots.count]
        }
        slots = fresh
        head = 0
    }
}
