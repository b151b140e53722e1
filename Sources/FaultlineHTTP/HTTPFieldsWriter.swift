/// Writes a field section in one pass for a new `HTTPHeaders`
/// (`HTTPHeaders(byteCapacity:fieldCapacity:writing:)`), into room the caller sizes up front.
/// A field is two copies and a few stores, where `HTTPHeaders.add` appends to two arrays
/// (each append checks uniqueness and capacity: about a hundred instructions), and
/// translating a head field by field is the HTTP/2 path's hot loop.
///
/// A field that does not fit the room reserved is refused, never written past it; the
/// translations size their room from the head they translate, so refusal means a wrong size
/// (debug builds stop there).
public struct HTTPFieldsWriter: ~Copyable {
    // Inlinable where it writes: the HTTP/2 translations call it from another module once
    // per field, and a call per field cost more than the stores it makes.
    @usableFromInline let bytes: UnsafeMutableBufferPointer<UInt8>
    @usableFromInline let fields: UnsafeMutableBufferPointer<HTTPHeaders.Field>
    @usableFromInline var written = 0
    @usableFromInline var fieldsWritten = 0
    /// Bytes written so far.
    public var byteCount: Int { written }
    /// Fields written so far.
    public var fieldCount: Int { fieldsWritten }

    @usableFromInline
    init(bytes: UnsafeMutableBufferPointer<UInt8>, fields: UnsafeMutableBufferPointer<HTTPHeaders.Field>) {
        self.bytes = bytes
        self.fields = fields
    }

    /// Appends `name: value`, the name lowercased when `lowercasingName` is set.
    @inlinable @inline(__always)
    public mutating func add(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer, lowercasingName: Bool = false) {
        guard let base = reserveLine(nameCount: name.count, valueCount: value.count) else { return }
        if let source = name.baseAddress {
            if lowercasingName {
                for index in 0..<name.count { base[index] = ASCII.lower(name[index]) }
            } else {
                UnsafeMutableRawPointer(base).copyMemory(from: source, byteCount: name.count)
            }
        }
        if let source = value.baseAddress {
            UnsafeMutableRawPointer(base + name.count + 2).copyMemory(from: source, byteCount: value.count)
        }
    }

    /// Appends `name: <value in decimal>`. The digits are written last to first by pointer:
    /// a `stride` over indices cost about twice as much for a three-digit status.
    public mutating func add(name: UnsafeRawBufferPointer, decimal value: UInt64) {
        var digitCount = 1
        var rest = value
        while rest >= 10 {
            digitCount += 1
            rest /= 10
        }
        guard let base = reserveLine(nameCount: name.count, valueCount: digitCount) else { return }
        if let source = name.baseAddress {
            UnsafeMutableRawPointer(base).copyMemory(from: source, byteCount: name.count)
        }
        var cursor = base + name.count + 2 + digitCount
        var remaining = value
        repeat {
            cursor -= 1
            cursor.pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: remaining % 10)
            remaining /= 10
        } while remaining > 0
    }

    /// Appends `name: value` for literals.
    public mutating func add(name: StaticString, value: StaticString) {
        add(name: UnsafeRawBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount),
            value: UnsafeRawBufferPointer(start: value.utf8Start, count: value.utf8CodeUnitCount))
    }

    /// Claims room for one line, writes its separator, line end and field entry, and returns
    /// where the name goes (the value follows it after ": "); nil when the line does not fit.
    @inlinable @inline(__always)
    mutating func reserveLine(nameCount: Int, valueCount: Int) -> UnsafeMutablePointer<UInt8>? {
        let lineCount = nameCount + valueCount + 4
        guard let start = bytes.baseAddress, fieldsWritten < fields.count, lineCount <= bytes.count - written else {
            assertionFailure("a field section outgrew the room reserved for it")
            return nil
        }
        let line = start + written
        line[nameCount] = UInt8(ascii: ":")
        line[nameCount + 1] = UInt8(ascii: " ")
        line[lineCount - 2] = 13
        line[lineCount - 1] = 10
        let valueStart = written + nameCount + 2
        fields.initializeElement(at: fieldsWritten, to: HTTPHeaders.Field(
            start: Int32(written), nameEnd: Int32(written + nameCount),
            valueStart: Int32(valueStart), valueEnd: Int32(valueStart + valueCount)))
        fieldsWritten += 1
        written += lineCount
        return line
    }
}

extension HTTPFieldsWriter {
    /// Runs `body` on a writer over temporary room for at most `byteCapacity` bytes of field
    /// lines and `fieldCapacity` fields (on the stack for a usual head), then hands `result`
    /// the lines and fields written, valid for that call only. Inlinable: unspecialized, its
    /// result type is looked up at run time on every call.
    @inlinable
    public static func withTemporaryRoom<R>(
        byteCapacity: Int, fieldCapacity: Int, writing body: (inout HTTPFieldsWriter) -> Void,
        _ result: (UnsafeRawBufferPointer, UnsafeBufferPointer<HTTPHeaders.Field>) -> R
    ) -> R {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, byteCapacity)) { byteBuffer in
            withUnsafeTemporaryAllocation(of: HTTPHeaders.Field.self, capacity: max(1, fieldCapacity)) { fieldBuffer in
                var writer = HTTPFieldsWriter(bytes: byteBuffer, fields: fieldBuffer)
                body(&writer)
                return result(UnsafeRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(byteBuffer)[..<writer.byteCount]),
                              UnsafeBufferPointer(rebasing: fieldBuffer[..<writer.fieldCount]))
            }
        }
    }
}

extension HTTPHeaders {
    /// Fields written by `body` in one pass into room for at most `byteCapacity` bytes of
    /// field lines and `fieldCapacity` fields, then copied into the two arrays once. The room
    /// is temporary: an array's own uninitialized-capacity initializer is not specialized
    /// across modules and costs several hundred instructions.
    public init(byteCapacity: Int, fieldCapacity: Int, writing body: (inout HTTPFieldsWriter) -> Void) {
        let (bytes, fields) = HTTPFieldsWriter.withTemporaryRoom(byteCapacity: byteCapacity, fieldCapacity: fieldCapacity,
                                                                 writing: body) { bytes, fields in
            ([UInt8](bytes), [Field](fields))
        }
        self.init(bytes: bytes, fields: fields)
    }
}
