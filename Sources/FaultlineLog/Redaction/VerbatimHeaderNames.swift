import FaultlineHTTP

/// The common header names whose values a `Redactor` logs as they are, spelled as they travel
/// (`Content-Type`), found by length and a case-insensitive byte compare: no normalised copy
/// of the name and no hashing for the headers nearly every message carries. A name not found
/// here takes `Redactor.redactHeader`'s full path, which decides the same way.
struct VerbatimHeaderNames: Sendable {
    /// Every name's lowercase bytes, back to back, shorter names first.
    private let spellings: [UInt8]
    /// The names, in the order of `spellings`.
    private let names: [String]
    /// Where each name's bytes start in `spellings`.
    private let offsets: [Int]
    /// For each length (the index), the range of `names` of that length. Flat arrays of plain
    /// values: a lookup reads them without reference counting.
    private let byLength: [Range<Int>]
    /// Each name's position in the `lowercaseSpellings` it was made from, in `names`' order.
    private let positions: [Int]

    /// The names of `lowercaseSpellings` for which `isVerbatim` holds (given normalised).
    init(lowercaseSpellings: [String], isVerbatim: (String) -> Bool) {
        var buckets = [[(name: String, position: Int)]](repeating: [], count: 33)
        for (position, name) in lowercaseSpellings.enumerated()
        where name.utf8.count < buckets.count && isVerbatim(RedactionName.normalize(name)) {
            buckets[name.utf8.count].append((name, position))
        }
        var spellings: [UInt8] = []
        var names: [String] = []
        var offsets: [Int] = []
        var byLength: [Range<Int>] = []
        var positions: [Int] = []
        for bucket in buckets {
            let first = names.count
            for (name, position) in bucket {
                offsets.append(spellings.count)
                spellings += Array(name.utf8)
                names.append(name)
                positions.append(position)
            }
            byLength.append(first..<names.count)
        }
        self.spellings = spellings
        self.names = names
        self.offsets = offsets
        self.byLength = byLength
        self.positions = positions
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
        guard length > 0, length < byLength.count else { return nil }
        // The first byte rules out most candidates before a whole comparison.
        let first = ASCII.lower(input[0])
        let candidates = byLength[length]
        return spellings.withUnsafeBytes { spellings -> Int? in
            offsets.withUnsafeBufferPointer { offsets -> Int? in
                for index in candidates {
                    let start = offsets[index]
                    if spellings[start] == first,
                       Self.matches(input, UnsafeRawBufferPointer(rebasing: spellings[start..<(start + length)])) {
                        return index
                    }
                }
                return nil
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
