/// A field section as the decoder receives it, piece by piece, in memory of its own: each
/// piece is a `memcpy` and a few stores, where appending to `HTTPHeaders`' arrays costs about
/// a hundred instructions per piece (uniqueness and capacity checks, a generic copy). The
/// finished section is copied into an `HTTPHeaders` at once. Sizes are bounded by the
/// decoder's limits, which it checks before each piece. A piece with no field begun (which
/// llhttp never reports) is ignored rather than written out of bounds. The HTTP/2 session
/// collects each header block's fields here too, a whole field at a time (`appendField`).
package struct HTTPFieldsBuilder: ~Copyable {
    private var bytes: UnsafeMutablePointer<UInt8>
    private var byteCapacity: Int
    private var byteCount = 0
    private var fields: UnsafeMutablePointer<HTTPHeaders.Field>
    private var fieldCapacity: Int
    /// Fields begun so far.
    package private(set) var count = 0

    /// An empty section with room for a typical head.
    package init() {
        byteCapacity = 512
        bytes = .allocate(capacity: byteCapacity)
        fieldCapacity = 16
        fields = .allocate(capacity: fieldCapacity)
    }

    deinit {
        bytes.deallocate()
        fields.deallocate()
    }

    /// Bytes of memory the builder holds.
    package var keptBytes: Int {
        byteCapacity + fieldCapacity * MemoryLayout<HTTPHeaders.Field>.stride
    }

    /// Forgets every field, keeping the memory.
    package mutating func removeAll() {
        byteCount = 0
        count = 0
    }

    /// Starts a field whose name arrives in pieces.
    @inline(__always)
    mutating func beginField() {
        if count == fieldCapacity {
            fieldCapacity *= 2
            fields = fields.movedToLarger(count: count, capacity: fieldCapacity)
        }
        let start = Int32(byteCount)
        (fields + count).initialize(to: HTTPHeaders.Field(start: start, nameEnd: start, valueStart: start, valueEnd: start))
        count += 1
    }

    /// Appends name bytes to the field being decoded.
    @inline(__always)
    mutating func appendName(_ piece: UnsafeRawBufferPointer) {
        guard count > 0 else { return }
        append(piece)
        fields[count - 1].nameEnd = Int32(byteCount)
    }

    /// Whether the field being decoded has no name bytes (or there is none).
    var lastNameIsEmpty: Bool {
        guard count > 0 else { return true }
        return fields[count - 1].nameEnd == fields[count - 1].start
    }

    /// Ends the name of the field being decoded and starts its value.
    @inline(__always)
    mutating func beginValue() {
        guard count > 0 else { return }
        appendPair(UInt8(ascii: ":"), UInt8(ascii: " "))
        fields[count - 1].valueStart = Int32(byteCount)
        fields[count - 1].valueEnd = Int32(byteCount)
    }

    /// Appends value bytes to the field being decoded.
    @inline(__always)
    mutating func appendValue(_ piece: UnsafeRawBufferPointer) {
        guard count > 0 else { return }
        append(piece)
        fields[count - 1].valueEnd = Int32(byteCount)
    }

    /// Closes the line of the field being decoded, trimming trailing whitespace of the value.
    @inline(__always)
    mutating func endField() {
        guard count > 0 else { return }
        var end = Int(fields[count - 1].valueEnd)
        let valueStart = Int(fields[count - 1].valueStart)
        while end > valueStart && ASCII.isWhitespace(bytes[end - 1]) { end -= 1 }
        byteCount = end
        fields[count - 1].valueEnd = Int32(end)
        appendPair(13, 10)
    }

    /// Appends a whole field as it is: a field that arrived complete (HTTP/2), whose name and
    /// value need no trimming.
    @inline(__always)
    package mutating func appendField(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
        beginField()
        appendName(name)
        beginValue()
        appendValue(value)
        // Not `endField`: a complete value has no trailing whitespace to trim.
        appendPair(13, 10)
    }

    /// Replaces the fields of `headers` with these, reusing its storage's capacity.
    package func copy(into headers: inout HTTPHeaders) {
        headers.replaceAll(bytes: UnsafeRawBufferPointer(start: bytes, count: byteCount),
                           fields: UnsafeBufferPointer(start: fields, count: count))
    }

    @inline(__always)
    private mutating func append(_ piece: UnsafeRawBufferPointer) {
        guard let source = piece.baseAddress, !piece.isEmpty else { return }
        let needed = byteCount + piece.count
        if needed > byteCapacity { grow(to: needed) }
        UnsafeMutableRawPointer(bytes + byteCount).copyMemory(from: source, byteCount: piece.count)
        byteCount = needed
    }

    /// Two bytes (a separator) as two stores: a `memcpy` call per separator cost more than
    /// the copy (four separators per field).
    @inline(__always)
    private mutating func appendPair(_ first: UInt8, _ second: UInt8) {
        if byteCount + 2 > byteCapacity { grow(to: byteCount + 2) }
        bytes[byteCount] = first
        bytes[byteCount + 1] = second
        byteCount += 2
    }

    @inline(never)
    private mutating func grow(to needed: Int) {
        byteCapacity = max(needed, byteCapacity * 2)
        bytes = bytes.movedToLarger(count: byteCount, capacity: byteCapacity)
    }
}
