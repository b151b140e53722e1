import FaultlineHTTP

/// Where `RequestHeadWriter` puts the upstream head as it walks the client's: HTTP/1 bytes
/// for an HTTP/1 leg (`HTTP1RequestHeadSink`), a head value for an HTTP/2 leg
/// (`HeadValueSink`), so the rules (hop-by-hop fields, Host, forwarding fields, Via, the
/// request id, framing) are written once and the head is never printed and parsed back.
protocol RequestHeadSink: ~Copyable {
    /// The method and target (origin form).
    mutating func requestLine(method: String, target: [UInt8])
    /// A field of the client's head kept as it is (`raw` is `headers.bytes`).
    mutating func copyField(_ index: Int, of headers: HTTPHeaders, raw: UnsafeRawBufferPointer)
    /// A field Faultline writes.
    mutating func field(_ name: StaticString, _ value: some Collection<UInt8>)
    /// A field with a decimal value.
    mutating func field(_ name: StaticString, decimal value: UInt64)
    /// `Via`: the earlier hops, then this one.
    mutating func via(existing: ArraySlice<UInt8>?, hop: StaticString)
    /// The head is complete.
    mutating func end()
}

/// The HTTP/1.1 bytes of the upstream head, composed in memory of its own (a piece is a
/// `memcpy`, where an append to an array costs about a hundred instructions) and copied into
/// one array at the end.
struct HTTP1RequestHeadSink: RequestHeadSink, ~Copyable {
    private var out: LineBuffer

    /// A sink writing into `buffer` (empty: `HeadScratch.compose` empties it), with room for
    /// `capacity` bytes before it grows.
    init(buffer: consuming LineBuffer, capacity: Int) {
        buffer.reserve(capacity)
        out = buffer
    }

    /// Replaces the contents of `array` with the head's bytes.
    func copy(into array: inout [UInt8]) {
        out.copy(into: &array)
    }

    /// The buffer, for the next head.
    consuming func release() -> LineBuffer { out }

    mutating func requestLine(method: String, target: [UInt8]) {
        HTTP1Encoder.appendRequestLine(method: method, target: target, into: &out)
    }

    mutating func copyField(_ index: Int, of headers: HTTPHeaders, raw: UnsafeRawBufferPointer) {
        out.append(UnsafeRawBufferPointer(rebasing: raw[headers.lineRange(index)]))
    }

    mutating func field(_ name: StaticString, _ value: some Collection<UInt8>) {
        HTTP1Encoder.appendField(name, value, into: &out)
    }

    mutating func field(_ name: StaticString, decimal value: UInt64) {
        HTTP1Encoder.appendField(name, decimal: value, into: &out)
    }

    mutating func via(existing: ArraySlice<UInt8>?, hop: StaticString) {
        RequestHeadWriter.appendVia(existing: existing, hop: hop, into: &out)
    }

    mutating func end() {
        out.append("\r\n")
    }
}

/// The upstream head as an `HTTPHead` value (HTTP/1.1 field names), for a leg that encodes
/// it as something other than HTTP/1 bytes.
struct HeadValueSink: RequestHeadSink {
    var head = HTTPHead()

    mutating func requestLine(method: String, target: [UInt8]) {
        head.method = method
        head.target = target
    }

    mutating func copyField(_ index: Int, of headers: HTTPHeaders, raw: UnsafeRawBufferPointer) {
        let field = headers.fields[index]
        head.headers.add(name: UnsafeRawBufferPointer(rebasing: raw[Int(field.start)..<Int(field.nameEnd)]),
                         value: UnsafeRawBufferPointer(rebasing: raw[Int(field.valueStart)..<Int(field.valueEnd)]))
    }

    mutating func field(_ name: StaticString, _ value: some Collection<UInt8>) {
        head.headers.add(name: UnsafeRawBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount), value: value)
    }

    mutating func field(_ name: StaticString, decimal value: UInt64) {
        field(name, String(value).utf8)
    }

    mutating func via(existing: ArraySlice<UInt8>?, hop: StaticString) {
        var value: [UInt8] = []
        if let existing, !existing.isEmpty {
            value.append(contentsOf: existing)
            value.append(contentsOf: ", ".utf8)
        }
        value.append(contentsOf: UnsafeBufferPointer(start: hop.utf8Start, count: hop.utf8CodeUnitCount))
        field("Via", value)
    }

    mutating func end() {}
}
