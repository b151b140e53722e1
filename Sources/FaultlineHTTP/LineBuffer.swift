/// Growable bytes in memory of their own, for the log and HAR writers and the HTTP/1 head
/// writers. A log line or a head is tens of small pieces, and each append to an array costs
/// about a hundred instructions (its uniqueness and capacity checks and a generic copy); here
/// a piece is one capacity check and a store or a `memcpy`. The finished bytes are copied
/// into an array once.
@usableFromInline
package struct LineBuffer: ~Copyable {
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    /// How many bytes fit before the buffer grows.
    @usableFromInline package internal(set) var capacity: Int
    /// Bytes written so far.
    @usableFromInline package internal(set) var count = 0

    /// An empty buffer with room for `capacity` bytes before it first grows.
    package init(capacity: Int = 256) {
        self.capacity = max(16, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// Calls `body` with the bytes written so far.
    @inlinable
    package func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    /// The bytes written so far, as an array.
    package var array: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// Replaces the contents of `array` with the bytes written so far, in its storage when
    /// the storage is the array's alone and large enough (no allocation then).
    package func copy(into array: inout [UInt8]) {
        array.replaceSubrange(array.indices, with: UnsafeBufferPointer(start: base, count: count))
    }

    /// Makes room for `extra` more bytes, doubling the storage when it must grow.
    @inlinable
    package mutating func reserve(_ extra: Int) {
        let needed = count + extra
        if needed > capacity { grow(to: needed) }
    }

    /// The rare path of `reserve`, kept out of line.
    @usableFromInline
    mutating func grow(to needed: Int) {
        capacity = max(needed, capacity * 2)
        base = base.movedToLarger(count: count, capacity: capacity)
    }

    /// Appends one byte.
    @inlinable @inline(__always)
    package mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    /// Appends `bytes`.
    @inlinable @inline(__always)
    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        UnsafeMutableRawPointer(base + count).copyMemory(from: source, byteCount: bytes.count)
        count += bytes.count
    }

    /// Appends the UTF-8 of a literal.
    @inlinable @inline(__always)
    package mutating func append(_ text: StaticString) {
        append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Forgets every byte, keeping the memory.
    @inlinable
    package mutating func removeAll() {
        count = 0
    }

    /// Drops the last `n` bytes (at most all of them).
    package mutating func removeLast(_ n: Int) {
        count -= min(max(0, n), count)
    }

    /// Lets `body` write at most `capacity` bytes in place, after the bytes so far.
    @inlinable @inline(__always)
    package mutating func compose(capacity extra: Int, _ body: (inout ByteComposer) -> Void) {
        reserve(extra)
        var composer = ByteComposer(base: base + count, capacity: extra)
        body(&composer)
        count += composer.count
    }
}
