/// Header fields kept in their wire form in one byte array, so that forwarding a kept field is
/// a copy of its line and a lookup is a byte comparison; no String per field.
public struct HTTPHeaders: Sendable {
    /// One field: `bytes[start..<nameEnd]` is the name, `bytes[valueStart..<valueEnd]` the value.
    public struct Field: Sendable {
        /// Offset of the name's first byte.
        public var start: Int32
        /// Offset just past the name.
        public var nameEnd: Int32
        /// Offset of the value's first byte.
        public var valueStart: Int32
        /// Offset just past the value.
        public var valueEnd: Int32

        // Spelled out so the inlinable field writer can make one.
        @usableFromInline
        init(start: Int32, nameEnd: Int32, valueStart: Int32, valueEnd: Int32) {
            self.start = start
            self.nameEnd = nameEnd
            self.valueStart = valueStart
            self.valueEnd = valueEnd
        }
    }

    /// `Name: value\r\n` lines, back to back.
    public private(set) var bytes: [UInt8]
    /// The fields in arrival order.
    public private(set) var fields: [Field]
    /// Which of the fields checks look for are among them (every change keeps it).
    public private(set) var namesSeen: NamesSeen = []

    /// An empty set of fields.
    public init() {
        bytes = []
        fields = []
    }

    /// Fields over `bytes` as they are (`HTTPFieldsWriter` wrote both).
    init(bytes: [UInt8], fields: [Field]) {
        self.bytes = bytes
        self.fields = fields
        namesSeen = bytes.withUnsafeBytes { raw in fields.withUnsafeBufferPointer { NamesSeen.of($0, over: raw) } }
    }

    /// Number of fields.
    public var count: Int { fields.count }

    /// Makes room for `byteCount` bytes of field lines and `fieldCount` fields, so that a head
    /// built field by field grows its storage once rather than a few times.
    public mutating func reserveCapacity(bytes byteCount: Int, fields fieldCount: Int) {
        bytes.reserveCapacity(byteCount)
        fields.reserveCapacity(fieldCount)
    }

    /// Removes every field; with `keepingCapacity`, the storage stays for the next fields.
    public mutating func removeAll(keepingCapacity: Bool) {
        bytes.removeAll(keepingCapacity: keepingCapacity)
        fields.removeAll(keepingCapacity: keepingCapacity)
        namesSeen = []
    }

    /// Appends a field; `name` and `value` are copied as they are.
    public mutating func add(name: some Collection<UInt8>, value: some Collection<UInt8>) {
        let start = Int32(bytes.count)
        bytes.append(contentsOf: name)
        let nameEnd = Int32(bytes.count)
        bytes.append(UInt8(ascii: ":"))
        bytes.append(UInt8(ascii: " "))
        let valueStart = Int32(bytes.count)
        bytes.append(contentsOf: value)
        let valueEnd = Int32(bytes.count)
        bytes.append(13)
        bytes.append(10)
        fields.append(Field(start: start, nameEnd: nameEnd, valueStart: valueStart, valueEnd: valueEnd))
        namesSeen.formUnion(bytes.withUnsafeBytes { NamesSeen.of(UnsafeRawBufferPointer(rebasing: $0[Int(start)..<Int(nameEnd)])) })
    }

    /// Appends a field from raw bytes (HTTP/2 request fields, synthesized ones), the name
    /// lowercased when `lowercasingName` is set. The line is written by an `HTTPFieldsWriter`
    /// in temporary room and appended once: each append to the arrays costs about a hundred
    /// instructions, and a head has a dozen fields or more.
    public mutating func add(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer, lowercasingName: Bool = false) {
        let start = Int32(bytes.count)
        // The closures are literals in the call: a closure kept in a variable is boxed on the heap.
        HTTPFieldsWriter.withTemporaryRoom(byteCapacity: name.count + value.count + 4, fieldCapacity: 1, writing: {
            $0.add(name: name, value: value, lowercasingName: lowercasingName)
        }) { line, written in
            bytes.append(contentsOf: line)
            namesSeen.formUnion(NamesSeen.of(written, over: line))
            for field in written {
                fields.append(Field(start: field.start + start, nameEnd: field.nameEnd + start,
                                    valueStart: field.valueStart + start, valueEnd: field.valueEnd + start))
            }
        }
    }

    /// Appends a field from Strings (config, tests, synthesized answers).
    public mutating func add(name: String, value: String) {
        add(name: name.utf8, value: value.utf8)
    }

    /// Replaces every field with `fields` over `bytes` (the decoder's builder), keeping the
    /// storage's capacity when it is this value's alone.
    mutating func replaceAll(bytes newBytes: UnsafeRawBufferPointer, fields newFields: UnsafeBufferPointer<Field>) {
        // One replacement per array: emptying and appending cost two generic calls each.
        bytes.replaceSubrange(bytes.indices, with: newBytes)
        fields.replaceSubrange(fields.indices, with: newFields)
        namesSeen = NamesSeen.of(newFields, over: newBytes)
    }

    /// Calls `body` with the name and value of field `index`.
    @inlinable
    public func withField<R>(_ index: Int, _ body: (_ name: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        let field = fields[index]
        return try bytes.withUnsafeBytes { raw in
            try body(UnsafeRawBufferPointer(rebasing: raw[Int(field.start)..<Int(field.nameEnd)]),
                     UnsafeRawBufferPointer(rebasing: raw[Int(field.valueStart)..<Int(field.valueEnd)]))
        }
    }

    /// Calls `body` with the index, name and value of each field in order until it returns
    /// false. One pass over both arrays: a head is checked and scanned several times per
    /// message, and `withField` per field costs reference counting on each call.
    @inlinable
    public func forEachField(_ body: (_ index: Int, _ name: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) throws -> Bool) rethrows {
        try bytes.withUnsafeBytes { raw in
            try fields.withUnsafeBufferPointer { fields in
                for index in fields.indices {
                    let field = fields[index]
                    let name = UnsafeRawBufferPointer(rebasing: raw[Int(field.start)..<Int(field.nameEnd)])
                    let value = UnsafeRawBufferPointer(rebasing: raw[Int(field.valueStart)..<Int(field.valueEnd)])
                    if try !body(index, name, value) { return }
                }
            }
        }
    }

    /// Index of the first field named `lowercaseName` (case-insensitive), if any.
    public func firstIndex(of lowercaseName: StaticString) -> Int? {
        var found: Int?
        forEachField { index, name, _ in
            if ASCII.equalsIgnoringCase(name, lowercaseName) { found = index }
            return found == nil
        }
        return found
    }

    /// How many fields are named `lowercaseName` (case-insensitive).
    public func count(of lowercaseName: StaticString) -> Int {
        var total = 0
        forEachField { _, name, _ in
            if ASCII.equalsIgnoringCase(name, lowercaseName) { total += 1 }
            return true
        }
        return total
    }

    /// The value of field `index` as a String.
    public func value(at index: Int) -> String {
        withField(index) { _, value in String(decoding: value, as: UTF8.self) }
    }

    /// The name of field `index` as a String.
    public func name(at index: Int) -> String {
        withField(index) { name, _ in String(decoding: name, as: UTF8.self) }
    }

    /// The first value of the field named `lowercaseName`, as a String.
    public func first(_ lowercaseName: StaticString) -> String? {
        firstIndex(of: lowercaseName).map { value(at: $0) }
    }

    /// All fields as name/value String pairs (tests, logs, admin; not the hot path).
    public var pairs: [(name: String, value: String)] {
        fields.indices.map { (name(at: $0), value(at: $0)) }
    }

    /// The bytes of field `index`'s whole line, `Name: value\r\n`.
    @inlinable
    public func lineRange(_ index: Int) -> Range<Int> {
        let field = fields[index]
        return Int(field.start)..<(Int(field.valueEnd) + 2)
    }
}
