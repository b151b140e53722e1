public import FaultlineHTTP

extension HTTPHead {
    /// This response head as an HTTP/2 field list: `:status` first, then the fields with lowercase
    /// names, without the connection-specific ones, those the Connection field names and
    /// `skipping` (lowercase names the caller writes itself).
    public func http2ResponseFields(skipping: [StaticString] = []) -> HTTPHeaders {
        HTTPHeaders(byteCapacity: http2ResponseFieldBytes, fieldCapacity: headers.count + 1) { writer in
            writer.add(name: Self.raw(":status"), decimal: UInt64(clamping: status))
            writeHTTP2Fields(into: &writer, dropping: skipping, lowercasingNames: true)
        }
    }

    /// The most bytes `writeHTTP2ResponseFields` writes: the `:status` line (up to 20 digits)
    /// and every field line, since a kept line is as long in HTTP/2's form as in HTTP/1's.
    public var http2ResponseFieldBytes: Int { headers.bytes.count + 32 }

    /// Writes the fields of `http2ResponseFields(skipping:)` into `writer` for
    /// `HTTP2Session.submitResponse`, for a caller that adds its own fields after these (room:
    /// `http2ResponseFieldBytes`, `headers.count + 1` fields). The names keep the upstream's
    /// spelling: nghttp2 lowercases every name it copies from a submitted head, so lowering
    /// them here too was a second pass over each name (about 400 instructions a response).
    public func writeHTTP2ResponseFields(into writer: inout HTTPFieldsWriter, skipping: [StaticString]) {
        writer.add(name: Self.raw(":status"), decimal: UInt64(clamping: status))
        writeHTTP2Fields(into: &writer, dropping: skipping, lowercasingNames: false)
    }

    /// This request head as an HTTP/2 field list (client role): `:method`, `:scheme`,
    /// `:authority` (`authority`, else the Host field) and `:path`, then the fields with lowercase
    /// names, without Host, the connection-specific ones and TE other than `trailers`.
    public func http2RequestFields(scheme: String, authority: String? = nil) -> HTTPHeaders {
        var method = method
        var scheme = scheme
        var authority = authority
        // Each pseudo-header line is at most 14 bytes besides its value; the Host value, when it
        // becomes `:authority`, is counted in the fields' bytes.
        let capacity = headers.bytes.count + method.utf8.count + scheme.utf8.count + (authority?.utf8.count ?? 0)
            + target.count + 4 * 14 + 8
        return HTTPHeaders(byteCapacity: capacity, fieldCapacity: headers.count + 4) { writer in
            method.withUTF8 { writer.add(name: Self.raw(":method"), value: UnsafeRawBufferPointer($0)) }
            scheme.withUTF8 { writer.add(name: Self.raw(":scheme"), value: UnsafeRawBufferPointer($0)) }
            if authority != nil {
                authority?.withUTF8 { writer.add(name: Self.raw(":authority"), value: UnsafeRawBufferPointer($0)) }
            } else {
                headers.forEachField { _, name, value in
                    guard name.count == 4, ASCII.equalsIgnoringCase(name, "host") else { return true }
                    writer.add(name: Self.raw(":authority"), value: value)
                    return false
                }
            }
            if method != "CONNECT" { target.withUnsafeBytes { writer.add(name: Self.raw(":path"), value: $0) } }
            writeHTTP2Fields(into: &writer, dropping: ["host"], lowercasingNames: true)
        }
    }

    /// These fields as HTTP/2 trailers: lowercase names, connection-specific ones dropped.
    public static func http2Trailers(_ trailers: HTTPHeaders) -> HTTPHeaders {
        var head = HTTPHead()
        head.headers = trailers
        return HTTPHeaders(byteCapacity: trailers.bytes.count, fieldCapacity: trailers.count) { writer in
            head.writeHTTP2Fields(into: &writer, dropping: [], lowercasingNames: true)
        }
    }

    /// Writes the regular fields, skipping what HTTP/2 may not carry, their names lowercased
    /// when `lowercasingNames` is set. A kept line is never longer than it was (TE becomes
    /// `te: trailers` only when its value lists it).
    private func writeHTTP2Fields(into writer: inout HTTPFieldsWriter, dropping extra: [StaticString], lowercasingNames: Bool) {
        // A Connection field names fields of this hop. Its common value, keep-alive, names a field
        // dropped anyway; only other names make each field be checked against the list.
        var namesOtherFields = false
        headers.forEachField { _, name, value in
            guard name.count == 10, ASCII.equalsIgnoringCase(name, "connection") else { return true }
            ASCII.forEachListElement(value) { token in
                if !ASCII.equalsIgnoringCase(token, "keep-alive") { namesOtherFields = true }
            }
            return !namesOtherFields
        }
        // The lengths of the names to drop, as bits: most fields are compared with none of them.
        var extraLengths: UInt64 = 0
        for skipped in extra { extraLengths |= 1 << UInt64(min(skipped.utf8CodeUnitCount, 63)) }
        headers.forEachField { _, name, value in
            if Self.isConnectionSpecific(name) { return true }
            if extraLengths & (1 << UInt64(min(name.count, 63))) != 0 {
                for skipped in extra where skipped.utf8CodeUnitCount == name.count && ASCII.equalsIgnoringCase(name, skipped) {
                    return true
                }
            }
            if namesOtherFields && connectionNames(name) { return true }
            // RFC 9113 §8.2.2: TE may only carry "trailers".
            if name.count == 2 && ASCII.equalsIgnoringCase(name, "te") {
                if ASCII.listContains(value, token: "trailers") { writer.add(name: Self.raw("te"), value: Self.raw("trailers")) }
                return true
            }
            writer.add(name: name, value: value, lowercasingName: lowercasingNames)
            return true
        }
    }

    /// Whether a Connection field lists `name`.
    private func connectionNames(_ name: UnsafeRawBufferPointer) -> Bool {
        var listed = false
        headers.forEachField { _, field, value in
            guard field.count == 10, ASCII.equalsIgnoringCase(field, "connection") else { return true }
            ASCII.forEachListElement(value) { token in
                if ASCII.equalsIgnoringCase(token, name) { listed = true }
            }
            return !listed
        }
        return listed
    }

    /// Whether `name` is a field that describes one HTTP/1 connection and has no meaning in
    /// HTTP/2 (RFC 9113 §8.2.2). The length picks the one or two candidates, so most fields
    /// cost one comparison of their length.
    private static func isConnectionSpecific(_ name: UnsafeRawBufferPointer) -> Bool {
        switch name.count {
        case 7: ASCII.equalsIgnoringCase(name, "upgrade")
        case 10: ASCII.equalsIgnoringCase(name, "connection") || ASCII.equalsIgnoringCase(name, "keep-alive")
        case 14: ASCII.equalsIgnoringCase(name, "http2-settings")
        case 16: ASCII.equalsIgnoringCase(name, "proxy-connection")
        case 17: ASCII.equalsIgnoringCase(name, "transfer-encoding")
        default: false
        }
    }

    /// The bytes of a literal, for the concrete `HTTPHeaders.add`.
    static func raw(_ text: StaticString) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
    }
}
