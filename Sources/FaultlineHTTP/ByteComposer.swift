/// A cursor over a few bytes of reserved memory: a `LineBuffer`'s free room, or stack memory
/// whose bytes are then appended to an array at once. A log line's member (comma, key and
/// value) is written through one, after one capacity check for the whole member.
@usableFromInline
package struct ByteComposer {
    @usableFromInline let base: UnsafeMutablePointer<UInt8>
    @usableFromInline let capacity: Int
    /// Bytes written so far.
    @usableFromInline package internal(set) var count = 0

    /// A cursor over `capacity` bytes at `base`, which the caller has reserved.
    @inlinable
    package init(base: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    /// The longest string value composed in one piece with its key; longer ones are written
    /// in parts.
    package static let composedValueLimit = 512

    /// Lets `body` write at most `capacity` bytes, then appends what it wrote to `out`. The
    /// caller computes `capacity` from the lengths it writes, so it is never exceeded.
    @inlinable @inline(__always)
    package static func append(capacity: Int, to out: inout [UInt8], _ body: (inout ByteComposer) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, capacity)) { buffer in
            guard let base = buffer.baseAddress else { return }
            var composer = ByteComposer(base: base, capacity: buffer.count)
            body(&composer)
            out.append(contentsOf: UnsafeBufferPointer(start: base, count: composer.count))
        }
    }

    /// Writes one byte.
    @inlinable @inline(__always)
    package mutating func put(_ byte: UInt8) {
        precondition(count < capacity, "ByteComposer capacity computed too small")
        base[count] = byte
        count += 1
    }

    /// Writes `bytes`.
    @inlinable @inline(__always)
    package mutating func put(_ bytes: UnsafeRawBufferPointer) {
        precondition(bytes.count <= capacity - count, "ByteComposer capacity computed too small")
        if let source = bytes.baseAddress, !bytes.isEmpty {
            UnsafeMutableRawPointer(base + count).copyMemory(from: source, byteCount: bytes.count)
        }
        count += bytes.count
    }

    /// Writes the UTF-8 of a literal.
    @inlinable @inline(__always)
    package mutating func put(_ text: StaticString) {
        put(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Writes the decimal digits of `value`, at least `width` of them with leading zeros (at
    /// most 20: UInt64.max has 20 digits).
    @inlinable
    package mutating func putDigits(_ value: UInt64, width: Int = 1) {
        var length = 1
        var scale: UInt64 = 10
        while length < 20 && value >= scale {
            length += 1
            scale = scale.multipliedReportingOverflow(by: 10).partialValue
        }
        length = max(length, min(width, 20))
        precondition(length <= capacity - count, "ByteComposer capacity computed too small")
        var rest = value
        for index in stride(from: count + length - 1, through: count, by: -1) {
            base[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        }
        count += length
    }

    /// Writes `value` (0...99; other values are written modulo 100) as two digits, `07`.
    @inlinable @inline(__always)
    package mutating func putTwoDigits(_ value: Int) {
        precondition(capacity - count >= 2, "ByteComposer capacity computed too small")
        let pair = UInt8(truncatingIfNeeded: value.magnitude % 100)
        base[count] = UInt8(ascii: "0") + pair / 10
        base[count + 1] = UInt8(ascii: "0") + pair % 10
        count += 2
    }

    /// Writes `micros` microseconds as milliseconds with three decimals, `12.345` (at most 24 bytes).
    package mutating func putMilliseconds(micros: UInt64) {
        putDigits(micros / 1000)
        put(UInt8(ascii: "."))
        putDigits(micros % 1000, width: 3)
    }
}
