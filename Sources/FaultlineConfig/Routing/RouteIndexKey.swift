/// Where a route is filed in a `RouteIndex`: under the literal a request must carry for
/// the route to match, or in the always-check list when it requires no usable literal.
enum RouteIndexKey: Equatable {
    /// The request path's first segment (between the leading `/` and the next `/` or the
    /// end) must equal these arena bytes.
    case segment(ByteSpan)
    /// The request's port-stripped host must equal these lowercased arena bytes.
    case host(ByteSpan)
    /// The request path's second byte (the first of its first segment) must be this one:
    /// a path literal that ends inside its first segment, like the prefix `/us`.
    case initial(UInt8)
    /// No usable literal: checked for every request.
    case always

    /// The most selective key `matcher` guarantees: a complete first path segment, then
    /// an exact host, then the first byte of a partial first segment.
    init(_ matcher: CompiledMatcher, arena: UnsafeRawBufferPointer) {
        let path = RouteIndexKey.pathKey(matcher.path, arena: arena)
        if case .segment = path {
            self = path
        } else if case .exact(let span) = matcher.host {
            self = .host(span)
        } else {
            self = path
        }
    }

    /// The key a path rule guarantees: `.segment`, `.initial` or `.always`.
    private static func pathKey(_ rule: CompiledMatcher.PathRule, arena: UnsafeRawBufferPointer) -> RouteIndexKey {
        let literal: ByteSpan
        // Whether the literal is the whole path, so it ends its first segment even
        // without a second `/` (`/users` exact ends it, `/users` prefix does not).
        let whole: Bool
        switch rule {
        case .any:
            return .always
        case .exact(let span):
            literal = span
            whole = true
        case .prefix(let span):
            literal = span
            whole = false
        case .glob(let span):
            let length = literalLength(span.bytes(in: arena))
            literal = ByteSpan(start: span.start, count: length)
            whole = length == span.count
        }
        return segmentKey(literal, whole: whole, arena: arena)
    }

    /// Keys the literal start of a path: its first segment when the literal contains a
    /// second `/` (or is the whole path), else the first byte of the segment it begins.
    private static func segmentKey(_ literal: ByteSpan, whole: Bool, arena: UnsafeRawBufferPointer) -> RouteIndexKey {
        let bytes = literal.bytes(in: arena)
        guard bytes.count > 0, bytes[0] == UInt8(ascii: "/") else { return .always }
        var end = 1
        while end < bytes.count && bytes[end] != UInt8(ascii: "/") { end += 1 }
        if end < bytes.count || whole {
            return .segment(ByteSpan(start: literal.start + 1, count: end - 1))
        }
        // The literal ends inside its first segment; `/` alone (count 1) says nothing.
        return bytes.count > 1 ? .initial(bytes[1]) : .always
    }

    /// How many leading bytes of a glob pattern are literal (before the first `*` or `?`).
    private static func literalLength(_ pattern: UnsafeRawBufferPointer) -> Int {
        var index = 0
        while index < pattern.count && pattern[index] != UInt8(ascii: "*") && pattern[index] != UInt8(ascii: "?") {
            index += 1
        }
        return index
    }
}
