/// A read-only hash map from byte strings (spans of a route table's pattern arena) to
/// ranges of a `RouteIndex`'s entry list. Open addressing with linear probing over a
/// power-of-two slot array: a lookup hashes the request bytes once and allocates nothing.
struct RouteIndexMap: Sendable {
    /// The key of each bucket, in the pattern arena.
    private let keys: [ByteSpan]
    /// The entries of each bucket, as a range of the index's entry list.
    private let ranges: [Range<Int>]
    /// Bucket number per slot, or -1 for an empty slot; at most half the slots are used.
    private let slots: [Int]
    /// Whether keys are compared ASCII case-insensitively (stored keys are lowercase).
    private let ignoringCase: Bool

    /// Builds the map of `buckets` (distinct keys, no two with the same bytes).
    init(_ buckets: [(key: ByteSpan, range: Range<Int>)], arena: UnsafeRawBufferPointer, ignoringCase: Bool) {
        var capacity = 8
        while capacity < buckets.count * 2 { capacity *= 2 }
        var slots = [Int](repeating: -1, count: capacity)
        for (number, bucket) in buckets.enumerated() {
            var slot = RouteIndexMap.hash(bucket.key.bytes(in: arena), ignoringCase: ignoringCase) & (capacity - 1)
            while slots[slot] >= 0 { slot = (slot + 1) & (capacity - 1) }
            slots[slot] = number
        }
        self.keys = buckets.map(\.key)
        self.ranges = buckets.map(\.range)
        self.slots = slots
        self.ignoringCase = ignoringCase
    }

    /// Whether the map holds no key (lookups can be skipped).
    var isEmpty: Bool {
        keys.isEmpty
    }

    /// The entry range filed under `key`, or an empty range.
    func range(for key: UnsafeRawBufferPointer, arena: UnsafeRawBufferPointer) -> Range<Int> {
        if keys.isEmpty { return 0..<0 }
        let mask = slots.count - 1
        var slot = RouteIndexMap.hash(key, ignoringCase: ignoringCase) & mask
        while true {
            let number = slots[slot]
            if number < 0 { return 0..<0 }
            let stored = keys[number].bytes(in: arena)
            if ignoringCase ? ByteMatch.equalsIgnoringCase(key, stored) : ByteMatch.equals(key, stored) {
                return ranges[number]
            }
            slot = (slot + 1) & mask
        }
    }

    /// FNV-1a over the bytes (lowercased when `ignoringCase`), folded to a non-negative Int.
    private static func hash(_ bytes: UnsafeRawBufferPointer, ignoringCase: Bool) -> Int {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        var index = 0
        while index < bytes.count {
            let byte = ignoringCase ? ByteMatch.lower(bytes[index]) : bytes[index]
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            index += 1
        }
        return Int(truncatingIfNeeded: (hash ^ (hash >> 32)) & 0x7FFF_FFFF_FFFF_FFFF)
    }
}
