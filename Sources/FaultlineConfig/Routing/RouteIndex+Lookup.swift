extension RouteIndex {
    /// Position of the first matcher (in table order) that matches the request, checking
    /// only the candidates the index selects. `host` has already had its port stripped.
    func firstMatch(
        host: UnsafeRawBufferPointer?, method: UnsafeRawBufferPointer, path: UnsafeRawBufferPointer,
        matchers: UnsafeBufferPointer<CompiledMatcher>, arena: UnsafeRawBufferPointer,
        methodSpans: UnsafeBufferPointer<ByteSpan>
    ) -> Int? {
        var candidates = RouteIndexCandidates(always: always)
        if path.count > 0 && path[0] == UInt8(ascii: "/") {
            if !segments.isEmpty {
                var end = 1
                while end < path.count && path[end] != UInt8(ascii: "/") { end += 1 }
                candidates.segment = segments.range(for: UnsafeRawBufferPointer(rebasing: path[1..<end]), arena: arena)
            }
            if !initials.isEmpty && path.count > 1 {
                candidates.initial = initials[Int(path[1])]
            }
        }
        if let host, !hosts.isEmpty {
            candidates.host = hosts.range(for: host, arena: arena)
        }
        return entries.withUnsafeBufferPointer { entries in
            while let position = candidates.popSmallest(entries) {
                if matchers[position].matches(
                    host: host, method: method, path: path, arena: arena, methodSpans: methodSpans) {
                    return position
                }
            }
            return nil
        }
    }
}
