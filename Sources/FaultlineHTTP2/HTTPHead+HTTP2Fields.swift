public import FaultlineHTTP

extension HTTPHead {
    /// Fields that describe one HTTP/1 connection and have no meaning in HTTP/2 (RFC 9113 §8.2.2).
    private static let connectionSpecific: [StaticString] = [
        "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "http2-settings",
    ]

    /// This response head as an HTTP/2 field list: `:status` first, then the fields with lowercase
    /// names, without the connection-specific ones and those the Connection field names.
    public func http2ResponseFields() -> HTTPHeaders {
        var out = HTTPHeaders()
        out.add(name: ":status", value: String(status))
        appendHTTP2Fields(to: &out, dropping: nil)
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
        appendHTTP2Fields(to: &out, dropping: "host")
        return out
    }

    /// These fields as HTTP/2 trailers: lowercase names, connection-specific ones dropped.
    public static func http2Trailers(_ trailers: HTTPHeaders) -> HTTPHeaders {
        var head = HTTPHead()
        head.headers = trailers
        var out = HTTPHeaders()
        head.appendHTTP2Fields(to: &out, dropping: nil)
        return out
    }

    /// Appends the regular fields, lowercased, skipping what HTTP/2 may not carry.
    private func appendHTTP2Fields(to out: inout HTTPHeaders, dropping extra: StaticString?) {
        var named: [[UInt8]] = []
        for index in 0..<headers.count {
            headers.withField(index) { name, value in
                guard ASCII.equalsIgnoringCase(name, "connection") else { return }
                ASCII.forEachListElement(value) { named.append($0.map(ASCII.lower)) }
            }
        }
        for index in 0..<headers.count {
            headers.withField(index) { name, value in
                let lower = name.map(ASCII.lower)
                if Self.connectionSpecific.contains(where: { ASCII.equalsIgnoringCase(name, $0) }) { return }
                if let extra, ASCII.equalsIgnoringCase(name, extra) { return }
                if named.contains(lower) { return }
                // RFC 9113 §8.2.2: TE may only carry "trailers".
                if ASCII.equalsIgnoringCase(name, "te") {
                    if ASCII.listContains(value, token: "trailers") { out.add(name: "te", value: "trailers") }
                    return
                }
                out.add(name: lower, value: value)
            }
        }
    }
}
