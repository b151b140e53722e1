extension RouteIndex {
    /// Position of the first matcher (in table order) that matches the request, checking
    /// only the candidates the index selects. `host` has already had its port stripped.
    func firstMatch(
        host: UnsafeRawBufferPointer?, method: UnsafeRawBufferPointer, path: UnsafeRawBufferPointer,
        matchers: UnsafeBufferPointer<CompiledMatcher>, arena: UnsafeRawBufferPointer,
        methodSpans: UnsafeBufferPointer<ByteSpan>, request: RouteRequest,
        conditions: UnsafeBufferPointer<RequestConditions?>
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
                let matcher = matchers[position]
                guard matcher.matches(host: host, method: method, path: path, arena: arena, methodSpans: methodSpans) else {
                    continue
                }
                if !matcher.hasConditions { return position }
                if let extra = conditions[position],
                   extra.matches(request, host: host, method: method, path: path, arena: arena, methodSpans: methodSpans) {
                    return position
                }
            }
            return nil
        }
    }
}
