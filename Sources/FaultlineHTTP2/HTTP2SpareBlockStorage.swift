import FaultlineHTTP

/// The storage of the last header blocks a session made (their fields, pseudo-header values
/// and `:path`), kept so that a later block refills it instead of allocating. A request head
/// takes its block's storage as it is; once its exchange is over, the storage is held here
/// alone, and refilling it is a copy with no allocation (a request block cost four).
///
/// Storage still held elsewhere (an exchange that is running, a journal record) is never
/// written to: refilling it makes new storage, exactly as a fresh block would, and the old
/// stays with its holder. The oldest storage is refilled first: it went out `slotCount` blocks
/// ago, more than the streams a connection usually has open at once.
struct HTTP2SpareBlockStorage {
    /// What one block is stored in.
    struct Storage {
        var fields = HTTPHeaders()
        var pseudoBytes: [UInt8] = []
        var pathBytes: [UInt8] = []

        /// Bytes of memory it holds.
        var keptBytes: Int {
            fields.bytes.capacity + fields.fields.capacity * MemoryLayout<HTTPHeaders.Field>.stride
                + pseudoBytes.capacity + pathBytes.capacity
        }
    }

    /// How many blocks' storage is kept.
    static let slotCount = 16
    /// Storage holding more than this is let go rather than kept for the connection's life.
    static let keptLimit = 4096
    /// The most all slots together keep: an idle connection holds at most this much for its
    /// next blocks (16 typical requests' worth).
    static let keptBudget = 16 * 1024

    private var slots: [Storage] = []
    /// The oldest slot once every slot is in use.
    private var oldest = 0
    /// Bytes of memory the kept storage holds (shared or not), at most `keptBudget`.
    private(set) var keptBytes = 0

    /// Storage for the next block: the oldest kept, or a new one until every slot is in use.
    /// It is moved out of its slot, so that it is unshared when nothing else holds it.
    mutating func take() -> Storage {
        var storage = Storage()
        if slots.count == Self.slotCount {
            swap(&storage, &slots[oldest])
            keptBytes -= storage.keptBytes
        }
        return storage
    }

    /// Keeps `storage` (shared with the block it went into) in the slot `take` emptied, unless
    /// it is larger than `keptLimit` or the slots' budget.
    mutating func keep(_ storage: Storage) {
        let bytes = storage.keptBytes
        let fits = bytes <= Self.keptLimit && keptBytes + bytes <= Self.keptBudget
        let kept = fits ? storage : Storage()
        if fits { keptBytes += bytes }
        if slots.count < Self.slotCount {
            slots.append(kept)
        } else {
            slots[oldest] = kept
            oldest = (oldest + 1) % Self.slotCount
        }
    }
}
