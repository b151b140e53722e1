public import FaultlineHTTP

extension HTTPHead {
    /// This response head as an HTTP/2 field list: `:status` first, then the fields with lowercase
    /// names, without the connection-specific ones, those the Connection field names and
    /// `skipping` (lowercase names the caller writes itself).
    public func http2ResponseFields(skipping: [StaticString] = []) -> HTTPHeaders {
        var out = HTTPHeaders()
        out.reserveCapacity(bytes: headers.bytes.count + 64, fields: headers.count + 4)
        let digits = (100...999).contains(status)
            ? [UInt8(ascii: "0") + UInt8(status / 100), UInt8(ascii: "0") + UInt8(status / 10 % 10), UInt8(ascii: "0") + UInt8(status % 10)]
            : Array(String(status).utf8)
        digits.withUnsafeBytes { out.add(name: Self.raw(":status"), value: $0) }
        appendHTTP2Fields(to: &out, dropping: skipping)
        return out
    }

    /// This request head as an HTTP/2 field list (client role): `:method`, `:scheme`,
    /// `:authority` (`authority`, else the Host field) and `:path`, then the fields with lowercase
    /// names, without Host, the connection-specific ones and TE other than `trailers`.
    public func http2RequestFields(scheme: String, authority: String? = nil) -> HTTPHeaders {
        var out = HTTPHeaders()
        out.add(name: ":method", value: method)
        out.add(name: ":scheme", value: scheme)
        if let authority {
            out.add(name: ":authority", value: authority)
        } else if let host = headers.firstIndex(of: "host") {
            headers.withField(host) { _, value in out.add(name: ":authority".utf8, value: value) }
        }
        if method != "CONNECT" { out.add(name: ":path".utf8, value: target) }
        appendHTTP2Fields(to: &out, dropping: ["host"])
        return out
    }

    /// These fields as HTTP/2 trailers: lowercase names, connection-specific ones dropped.
    public static func http2Trailers(_ trailers: HTTPHeaders) -> HTTPHeaders {
        var head = HTTPHead()
        head.headers = trailers
        var out = HTTPHeaders()
        head.appendHTTP2Fields(to: &out, dropping: [])
        return out
    }

    /// Appends the regular fields, lowercased, skipping what HTTP/2 may not carry.
    private func appendHTTP2Fields(to out: inout HTTPHeaders, dropping extra: [StaticString]) {
        // The names a Connection field lists (rare: most heads have none, and then no allocation).
        var named: [[UInt8]] = []
        for index in 0..<headers.count {
            headers.withField(index) { name, value in
                guard name.count == 10, ASCII.equalsIgnoringCase(name, "connection") else { return }
                ASCII.forEachListElement(value) { named.append($0.map(ASCII.lower)) }
            }
        }
        for index in 0..<headers.count {
            headers.withField(index) { name, value in
                if Self.isConnectionSpecific(name) { return }
                if extra.contains(where: { $0.utf8CodeUnitCount == name.count && ASCII.equalsIgnoringCase(name, $0) }) { return }
                if !named.isEmpty && named.contains(where: { $0.withUnsafeBytes { ASCII.equalsIgnoringCase(name, $0) } }) { return }
                // RFC 9113 §8.2.2: TE may only carry "trailers".
                if name.count == 2 && ASCII.equalsIgnoringCase(name, "te") {
                    if ASCII.listContains(value, token: "trailers") { out.add(name: Self.raw("te"), value: Self.raw("trailers")) }
                    return
                }
                out.add(name: name, value: value, lowercasingName: true)
            }
        }
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
