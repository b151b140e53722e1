import FaultlineHTTP

/// Growable bytes in memory of their own, for the log and HAR writers. A log line is tens
/// of small pieces, and each append to an array costs about a hundred instructions (its
/// uniqueness and capacity checks and a generic copy); here a piece is one capacity check
/// and a store or a `memcpy`. The finished text is copied into an array once.
struct LineBuffer: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Bytes written so far.
    private(set) var count = 0

    /// An empty buffer with room for `capacity` bytes before it first grows.
    init(capacity: Int = 256) {
        self.capacity = max(16, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// The bytes written so far, as an array.
    var array: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// Makes room for `extra` more bytes, doubling the storage when it must grow.
    mutating func reserve(_ extra: Int) {
        let needed = count + extra
        guard needed > capacity else { return }
        capacity = max(needed, capacity * 2)
        base = base.movedToLarger(count: count, capacity: capacity)
    }

    /// Appends one byte.
    @inline(__always)
    mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    /// Appends `bytes`.
    @inline(__always)
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        UnsafeMutableRawPointer(base + count).copyMemory(from: source, byteCount: bytes.count)
        count += bytes.count
    }

    /// Appends the UTF-8 of a literal.
    @inline(__always)
    mutating func append(_ text: StaticString) {
        append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Drops the last `n` bytes (at most all of them).
    mutating func removeLast(_ n: Int) {
        count -= min(max(0, n), count)
    }

    /// Lets `body` write at most `capacity` bytes in place, after the bytes so far.
    @inline(__always)
    mutating func compose(capacity extra: Int, _ body: (inout ByteComposer) -> Void) {
        reserve(extra)
        var composer = ByteComposer(base: base + count, capacity: extra)
        body(&composer)
        count += composer.count
    }
}
