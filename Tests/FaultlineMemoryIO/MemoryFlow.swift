/// One direction of an in-memory connection: the bytes written and not yet read, and how
/// the writer ended its side.
struct MemoryFlow {
    /// How the writing side ended.
    enum End: Equatable {
        /// Still sending.
        case open
        /// FIN after the bytes in flight.
        case finished
        /// RST: the reader fails with ECONNRESET.
        case reset
    }

    private(set) var bytes: [UInt8] = []
    private var start = 0
    private(set) var end = End.open

    var count: Int { bytes.count - start }

    /// Appends what the writer sent; nothing after its end.
    mutating func append(_ more: UnsafeRawBufferPointer) -> Bool {
        guard end == .open else { return false }
        bytes.append(contentsOf: more)
        return true
    }

    /// Takes up to `limit` bytes, oldest first.
    mutating func take(upTo limit: Int) -> ArraySlice<UInt8> {
        let taken = bytes[start..<start + min(limit, count)]
        start += taken.count
        if start == bytes.count {
            bytes.removeAll(keepingCapacity: true)
            start = 0
        }
        return taken
    }

    /// The writer ends its side; a reset overrides a FIN, nothing overrides a reset.
    mutating func close(_ how: End) {
        if end != .reset { end = how }
    }
}
