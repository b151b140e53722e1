/// One route's conditions precompiled into spans of a shared pattern arena. The type
/// is trivial, so matching does no decoding, allocation or reference counting.
struct CompiledMatcher: Sendable {
    enum HostRule: Sendable {
        case any
        /// Lowercased host, IPv6 in brackets.
        case exact(ByteSpan)
        /// Lowercased `.suffix`, leading dot included so the apex never matches.
        case subdomainOf(ByteSpan)
    }

    enum PathRule: Sendable {
        case any
        case exact(ByteSpan)
        case prefix(ByteSpan)
        case glob(ByteSpan)
    }

    let host: HostRule
    /// Indexes into the table's method spans; empty accepts every method.
    let methods: Range<Int>
    let path: PathRule
    /// Whether the route also has `RequestConditions` (headers, query, cookies, client, not),
    /// checked only after host, method and path match.
    let hasConditions: Bool

    /// Compiles `match`, storing its patterns in `arena`.
    init(_ match: RouteMatch, arena: inout PatternArena) {
        switch match.host {
        case nil: host = .any
        case .exact(let name)?: host = .exact(arena.add(Array(name.lowercased().utf8)))
        case .wildcard(let suffix)?: host = .subdomainOf(arena.add(Array(("." + suffix.lowercased()).utf8)))
        }
        methods = arena.addMethods(match.methods ?? [])
        hasConditions = match.hasRequestConditions
        switch match.path {
        case nil: path = .any
        case .exact(let text)?: path = .exact(arena.add(Array(text.utf8)))
        case .prefix(let text)?: path = .prefix(arena.add(Array(text.utf8)))
        case .glob(let text)?: path = .glob(arena.add(CompiledMatcher.collapseStars(Array(text.utf8))))
        }
    }

    /// Whether a request matches; `host` has already had its port stripped.
    func matches(
        host requestHost: UnsafeRawBufferPointer?, method: UnsafeRawBufferPointer, path requestPath: UnsafeRawBufferPointer,
        arena: UnsafeRawBufferPointer, methodSpans: UnsafeBufferPointer<ByteSpan>
    ) -> Bool {
        if !methods.isEmpty {
            var index = methods.lowerBound
            while index < methods.upperBound {
                if ByteMatch.equals(method, methodSpans[index].bytes(in: arena)) { break }
                index += 1
            }
            if index == methods.upperBound { return false }
        }
        switch path {
        case .any: break
        case .exact(let span): if !ByteMatch.equals(requestPath, span.bytes(in: arena)) { return false }
        case .prefix(let span): if !ByteMatch.hasPrefix(requestPath, span.bytes(in: arena)) { return false }
        case .glob(let span): if !ByteMatch.glob(requestPath, span.bytes(in: arena)) { return false }
        }
        switch host {
        case .any:
            return true
        case .exact(let span):
            guard let requestHost, requestHost.count == span.count else { return false }
            return ByteMatch.hasSuffixIgnoringCase(requestHost, span.bytes(in: arena))
        case .subdomainOf(let span):
            guard let requestHost, requestHost.count > span.count else { return false }
            return ByteMatch.hasSuffixIgnoringCase(requestHost, span.bytes(in: arena))
        }
    }

    /// `a**b` means the same as `a*b`; collapsing keeps backtracking short.
    private static func collapseStars(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        for byte in bytes where !(byte == UInt8(ascii: "*") && out.last == UInt8(ascii: "*")) {
            out.append(byte)
        }
        return out
    }
}
