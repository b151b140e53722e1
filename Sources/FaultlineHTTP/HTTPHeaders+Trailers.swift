extension HTTPHeaders {
    /// Fields a trailer section may not carry (RFC 9110 §6.5.1): framing, routing, request
    /// modifiers, authentication, response control data and the fields that say how to process
    /// the content. A recipient that merged them into the head would let a body's sender change
    /// how the message is framed, routed, cached or authenticated after the fact.
    static let prohibitedInTrailers: [StaticString] = [
        "content-length", "transfer-encoding", "host", "set-cookie", "cookie", "authorization", "content-type",
        "trailer", "connection", "keep-alive", "proxy-connection", "te", "upgrade", "http2-settings",
        "cache-control", "expect", "max-forwards", "pragma", "range", "content-encoding", "content-range", "age",
        "expires", "date", "location", "retry-after", "vary", "warning", "www-authenticate", "proxy-authenticate",
        "proxy-authorization", "if-match", "if-none-match", "if-modified-since", "if-unmodified-since", "if-range",
    ]

    /// Whether a field named `name` is dropped from a trailer section.
    public static func isProhibitedInTrailers(_ name: UnsafeRawBufferPointer) -> Bool {
        if name.isEmpty { return true }
        return prohibitedInTrailers.contains { ASCII.equalsIgnoringCase(name, $0) }
    }

    /// These fields as a trailer section may carry them: prohibited fields dropped, as Envoy
    /// and nghttp2 do, the rest kept in order.
    public var forwardableTrailers: HTTPHeaders { forwardableTrailers(dropping: []) }

    /// `forwardableTrailers`, also without the fields named `extra` (any case): the fields a
    /// proxy consumes itself and never forwards, wherever they appear.
    public func forwardableTrailers(dropping extra: [String]) -> HTTPHeaders {
        var kept = HTTPHeaders()
        for index in 0..<count {
            withField(index) { name, value in
                if Self.isProhibitedInTrailers(name) { return }
                if extra.contains(where: { name.count == $0.utf8.count && ASCII.equalsIgnoringCase(name, configured: $0) }) { return }
                kept.add(name: name, value: value)
            }
        }
        return kept
    }
}
