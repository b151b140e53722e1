import FaultlineHTTP

/// The common header names whose values a `Redactor` logs as they are, spelled as they travel
/// (`Content-Type`), found by their length and end bytes and a case-insensitive byte compare:
/// no normalised copy of the name and no full hash for the headers nearly every message
/// carries. A name not found here takes `Redactor.redactHeader`'s full path, which decides
/// the same way.
struct VerbatimHeaderNames: Sendable {
    /// Every name's lowercase bytes, back to back.
    private let spellings: [UInt8]
    /// The names, in the order of `spellings`.
    private let names: [String]
    /// Each name's position in the `lowercaseSpellings` it was made from, in `names`' order.
    private let positions: [Int]
    /// An open-addressing table (linear probing) over length, first and last byte: each slot
    /// is 0 when empty, else a name's offset in `spellings` (bits 0-31), its length (32-39)
    /// and its index in `names` plus one (40-55). Most lookups read one slot and compare one
    /// name, where a scan of the names of the input's length cost about a hundred
    /// instructions per header. At most a quarter of the slots are used, so a probe for a
    /// name not in the table soon meets an empty slot.
    private let slots: [UInt64]

    /// The longest name kept; longer ones are never common header names.
    private static let maxLength = 32

    /// The names of `lowercaseSpellings` for which `isVerbatim` holds (given normalised).
    init(lowercaseSpellings: [String], isVerbatim: (String) -> Bool) {
        var spellings: [UInt8] = []
        var names: [String] = []
        var positions: [Int] = []
        for (position, name) in lowercaseSpellings.enumerated()
        where (1...Self.maxLength).contains(name.utf8.count) && names.count < 0xFFFE
            && isVerbatim(RedactionName.normalize(name)) {
            positions.append(position)
            names.append(name)
            spellings += Array(name.utf8)
        }
        var size = 64
        while size < names.count * 4 { size *= 2 }
        var slots = [UInt64](repeating: 0, count: size)
        var offset = 0
        for (index, name) in names.enumerated() {
            let bytes = Array(name.utf8)
            var slot = Self.slot(length: bytes.count, first: bytes[0], last: bytes[bytes.count - 1], mask: size - 1)
            while slots[slot] != 0 { slot = (slot + 1) & (size - 1) }
            slots[slot] = UInt64(offset) | UInt64(bytes.count) << 32 | UInt64(index + 1) << 40
            offset += bytes.count
        }
        self.spellings = spellings
        self.names = names
        self.positions = positions
        self.slots = slots
    }

    /// Where a name of `length` bytes starting with `first` and ending with `last` is looked
    /// for first (either byte in any case).
    private static func slot(length: Int, first: UInt8, last: UInt8, mask: Int) -> Int {
        (length &* 37 &+ Int(ASCII.lower(first)) &* 7 &+ Int(ASCII.lower(last))) & mask
    }

    /// The lowercase spelling of `name` when it is one of these names, else nil.
    func lowercased(_ name: String) -> String? {
        var name = name
        return name.withUTF8 { lowercased(bytes: UnsafeRawBufferPointer($0)) }
    }

    /// The lowercase spelling of the name `input` holds when it is one of these names, else nil.
    func lowercased(bytes input: UnsafeRawBufferPointer) -> String? {
        index(of: input).map { names[$0] }
    }

    /// The position in the `lowercaseSpellings` these names were made from of the name
    /// `input` holds, when it is one of these names (no String is made).
    func position(bytes input: UnsafeRawBufferPointer) -> Int? {
        index(of: input).map { positions[$0] }
    }

    private func index(of input: UnsafeRawBufferPointer) -> Int? {
        let length = input.count
        guard length > 0, length <= Self.maxLength else { return nil }
        return slots.withUnsafeBufferPointer { slots -> Int? in
            spellings.withUnsafeBytes { spellings -> Int? in
                let mask = slots.count - 1
                var slot = Self.slot(length: length, first: input[0], last: input[length - 1], mask: mask)
                while true {
                    let entry = slots[slot]
                    if entry == 0 { return nil }
                    let start = Int(truncatingIfNeeded: entry & 0xFFFF_FFFF)
                    if Int(truncatingIfNeeded: (entry >> 32) & 0xFF) == length, start <= spellings.count - length,
                       Self.matches(input, UnsafeRawBufferPointer(rebasing: spellings[start..<(start + length)])) {
                        return Int(truncatingIfNeeded: entry >> 40) - 1
                    }
                    slot = (slot + 1) & mask
                }
            }
        }
    }

    /// Case-insensitive equality of `input` with `spelling` (lowercase ASCII, the same length),
    /// eight bytes at a time: nearly every header a message carries is one of these names, so
    /// each is compared whole, where the byte loop cost about a dozen instructions a byte.
    private static func matches(_ input: UnsafeRawBufferPointer, _ spelling: UnsafeRawBufferPointer) -> Bool {
        let count = input.count
        guard count >= 8 else { return ASCII.equalsIgnoringCase(input, lowercase: spelling) }
        var offset = 0
        while offset + 8 <= count {
            if lowered(input.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                != spelling.loadUnaligned(fromByteOffset: offset, as: UInt64.self) {
                return false
            }
            offset += 8
        }
        // The last bytes as the last whole word, overlapping the one before.
        return offset == count || lowered(input.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
            == spelling.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
    }

    /// `word` with its ASCII capital letters lowercased. A byte of 0x80 or above keeps its high
    /// bit, so it never equals a spelling's byte; with the high bits cleared first, the two
    /// additions never carry from one byte into the next.
    private static func lowered(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let low = word & (0x7F &* ones)
        let fromA = low &+ ((0x80 - 0x41) &* ones)
        let pastZ = low &+ ((0x80 - 0x5B) &* ones)
        let capitals = fromA & ~pastZ & (0x80 &* ones)
        return word | (capitals >> 2)
    }
}
