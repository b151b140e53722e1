/// Values by HTTP/2 stream id, kept in id order in one array and found by binary search.
///
/// A connection looks a stream up several times per frame, and a `Dictionary` pays a SipHash of
/// the key on each lookup (about 120 instructions); here a lookup among the few streams a
/// connection has open is a handful of comparisons. Stream ids only grow on a connection
/// (RFC 9113 §5.1.1), so a new stream is appended at the end; removal moves the entries after
/// it, and the table never holds more than the streams open at once, which SETTINGS bounds.
public struct HTTP2StreamTable<Value> {
    @usableFromInline
    struct Entry {
        @usableFromInline let id: Int32
        @usableFromInline var value: Value

        @inlinable
        init(id: Int32, value: Value) {
            self.id = id
            self.value = value
        }
    }

    // Inlinable throughout: the owners live in other modules, and an unspecialized generic
    // looks its type's metadata up at run time on every call.
    @usableFromInline var entries: [Entry] = []

    /// An empty table.
    @inlinable
    public init() {}

    /// How many streams the table holds.
    @inlinable
    public var count: Int { entries.count }

    /// Whether the table holds no stream.
    @inlinable
    public var isEmpty: Bool { entries.isEmpty }

    /// The stream ids, lowest first.
    @inlinable
    public var ids: [Int32] { entries.map(\.id) }

    /// The values in stream-id order.
    @inlinable
    public var values: [Value] { entries.map(\.value) }

    /// The value for stream `id`; setting nil removes it.
    @inlinable
    public subscript(id: Int32) -> Value? {
        get {
            guard case .found(let index) = position(of: id) else { return nil }
            return entries[index].value
        }
        set {
            switch (position(of: id), newValue) {
            case (.found(let index), .some(let value)): entries[index].value = value
            case (.found(let index), .none): entries.remove(at: index)
            case (.insertion(let index), .some(let value)): entries.insert(Entry(id: id, value: value), at: index)
            case (.insertion, .none): break
            }
        }
    }

    /// Removes stream `id` and returns its value, if it was there.
    @inlinable @discardableResult
    public mutating func removeValue(forKey id: Int32) -> Value? {
        guard case .found(let index) = position(of: id) else { return nil }
        return entries.remove(at: index).value
    }

    /// Removes every stream.
    @inlinable
    public mutating func removeAll() {
        entries = []
    }

    @usableFromInline
    enum Position {
        case found(Int)
        case insertion(Int)
    }

    /// Where `id` is, or where it would go. The newest stream is the likeliest, and it is last.
    /// Indexed directly rather than through `withUnsafeBufferPointer`, whose closure the
    /// compiler kept as a call of its own on each of the dozen lookups a request makes.
    @inlinable
    func position(of id: Int32) -> Position {
        let count = entries.count
        guard count > 0 else { return .insertion(0) }
        let lastID = entries[count - 1].id
        if lastID == id { return .found(count - 1) }
        if lastID < id { return .insertion(count) }
        var low = 0
        var high = count - 1
        while low < high {
            let middle = low + (high - low) / 2
            let candidate = entries[middle].id
            if candidate == id { return .found(middle) }
            if candidate < id { low = middle + 1 } else { high = middle }
        }
        return entries[low].id == id ? .found(low) : .insertion(low)
    }
}
