/// Writes HTTP/1.1 message parts into byte arrays; no I/O, no Foundation.
public enum HTTP1Encoder {
    /// `METHOD target HTTP/1.1\r\n`.
    package static func appendRequestLine(method: String, target: [UInt8], into out: inout LineBuffer) {
        var method = method
        method.withUTF8 { out.append(UnsafeRawBufferPointer($0)) }
        out.append(UInt8(ascii: " "))
        target.withUnsafeBytes { out.append($0) }
        out.append(" HTTP/1.1\r\n")
    }

    /// `name: value\r\n` into a `LineBuffer`.
    @inlinable
    package static func appendField(_ name: StaticString, _ value: some Collection<UInt8>, into out: inout LineBuffer) {
        out.append(name)
        out.append(": ")
        if value.withContiguousStorageIfAvailable({ out.append(UnsafeRawBufferPointer($0)) }) == nil {
            for byte in value { out.append(byte) }
        }
        out.append("\r\n")
    }

    /// `name: <decimal>\r\n` into a `LineBuffer`.
    package static func appendField(_ name: StaticString, decimal value: UInt64, into out: inout LineBuffer) {
        out.append(name)
        out.compose(capacity: 22) { composer in
            composer.put(": ")
            composer.putDigits(value)
        }
        out.append("\r\n")
    }

    /// `HTTP/1.x status reason\r\n`; an empty reason is replaced by the standard phrase.
    public static func appendStatusLine(status: Int, reason: [UInt8], minorVersion: Int = 1, into out: inout [UInt8]) {
        var line = LineBuffer(capacity: 64 + reason.count)
        appendStatusLine(status: status, reason: reason, minorVersion: minorVersion, into: &line)
        line.withBytes { out.append(contentsOf: $0) }
    }

    /// The status line into a `LineBuffer`: on the response path it goes into the same room as
    /// the fields, which are copied out once (three array appends cost some 400 instructions).
    package static func appendStatusLine(status: Int, reason: [UInt8], minorVersion: Int = 1, into out: inout LineBuffer) {
        out.append(minorVersion == 0 ? "HTTP/1.0 " : "HTTP/1.1 ")
        // Any Int (an own response's status is not range-checked here): sign, 20 digits, space.
        out.compose(capacity: 22) { composer in
            if status < 0 { composer.put(UInt8(ascii: "-")) }
            composer.putDigits(UInt64(status.magnitude))
            composer.put(UInt8(ascii: " "))
        }
        if reason.isEmpty {
            var standard = HTTPStatus.reason(status)
            standard.withUTF8 { out.append(UnsafeRawBufferPointer($0)) }
        } else {
            reason.withUnsafeBytes { out.append($0) }
        }
        out.append("\r\n")
    }

    /// `name: value\r\n`. Inlinable so that each caller gets a version specialised for its
    /// collection: unspecialised, appending a generic collection goes through the runtime's
    /// metadata and witness tables, several hundred instructions per field on every head.
    @inlinable
    public static func appendField(_ name: StaticString, _ value: some Collection<UInt8>, into out: inout [UInt8]) {
        append(name, to: &out)
        out.append(UInt8(ascii: ":"))
        out.append(UInt8(ascii: " "))
        out.append(contentsOf: value)
        append("\r\n", to: &out)
    }

    /// `name: <decimal>\r\n`; every UInt64 is written exactly (a Content-Length above
    /// Int.max must never come out negative).
    public static func appendField(_ name: StaticString, decimal value: UInt64, into out: inout [UInt8]) {
        append(name, to: &out)
        out.append(UInt8(ascii: ":"))
        out.append(UInt8(ascii: " "))
        appendDecimal(value, into: &out)
        append("\r\n", to: &out)
    }

    /// The size line that opens a chunk of `size` bytes.
    public static func appendChunkHeader(size: Int, into out: inout [UInt8]) {
        let digits = Array(String(size, radix: 16).utf8)
        out.append(contentsOf: digits)
        append("\r\n", to: &out)
    }

    /// The CRLF that closes a chunk's data.
    public static let chunkEnd: [UInt8] = [13, 10]
    /// The last chunk of a body with no trailers.
    public static let lastChunk: [UInt8] = Array("0\r\n\r\n".utf8)

    /// The last chunk followed by trailer fields; fields a trailer section may not carry
    /// (`HTTPHeaders.isProhibitedInTrailers`) are never written, whoever built `trailers`.
    public static func appendLastChunk(trailers: HTTPHeaders, into out: inout [UInt8]) {
        append("0\r\n", to: &out)
        trailers.bytes.withUnsafeBytes { raw in
            for index in 0..<trailers.count {
                let field = trailers.fields[index]
                let name = UnsafeRawBufferPointer(rebasing: raw[Int(field.start)..<Int(field.nameEnd)])
                if !HTTPHeaders.isProhibitedInTrailers(name) { out.append(contentsOf: raw[trailers.lineRange(index)]) }
            }
        }
        append("\r\n", to: &out)
    }

    /// Appends the bytes of a literal: a String literal's `utf8` view is copied through the
    /// generic `Sequence` path, several times the cost of one `memcpy`.
    @inlinable
    public static func append(_ text: StaticString, to out: inout [UInt8]) {
        out.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// A decimal unsigned integer in ASCII (at most 20 digits).
    public static func appendDecimal(_ value: UInt64, into out: inout [UInt8]) {
        if value == 0 {
            out.append(UInt8(ascii: "0"))
            return
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            while rest > 0 {
                buffer[count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            }
            for index in stride(from: count - 1, through: 0, by: -1) { out.append(buffer[index]) }
        }
    }
}
