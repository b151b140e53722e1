/// The routes of one config snapshot compiled for matching on the hot path: patterns
/// are byte arrays and lookups compare raw request bytes without Foundation or allocation.
public final class RouteTable: Sendable {
    // Matchers and results live in parallel arrays so the scan borrows matchers in
    // place; iterating a struct of both copied (and retained) every field per route.
    private let matchers: [CompiledMatcher]
    private let compiled: [CompiledRoute]
    private let patternBytes: [UInt8]
    private let methodSpans: [ByteSpan]
    /// Candidate lists per request literal, in front of the matchers.
    private let index: RouteIndex

    /// Compiles `config.routes` in order. A route naming an upstream missing from the
    /// config (impossible for a loaded config, possible for a hand-built one) is skipped.
    public convenience init(config: ProxyConfig) {
        self.init(entries: config.routes.enumerated().compactMap { index, route in
            config.upstream(named: route.upstream).map {
                (route.match, CompiledRoute(index: index, name: route.name, upstream: $0, faults: route.faults))
            }
        })
    }

    /// Compiles `entries` in order: each match condition with the route it answers (a
    /// session's rules, whose upstreams are resolved by their owner).
    public init(entries: [(match: RouteMatch, route: CompiledRoute)]) {
        var matchers: [CompiledMatcher] = []
        var compiled: [CompiledRoute] = []
        var arena = PatternArena()
        for entry in entries {
            matchers.append(CompiledMatcher(entry.match, arena: &arena))
            compiled.append(entry.route)
        }
        self.matchers = matchers
        self.compiled = compiled
        self.patternBytes = arena.bytes
        self.methodSpans = arena.methodSpans
        self.index = arena.bytes.withUnsafeBytes { RouteIndex(matchers: matchers, arena: $0) }
    }

    /// The compiled routes in match order.
    public var routes: [CompiledRoute] {
        compiled
    }

    /// First route whose host, method and path all match. host is the Host header value
    /// (may include ":port", may be nil); path excludes the query. Only the routes the
    /// index selects are checked; the answer is always the linear scan's.
    public func match(
        host: UnsafeRawBufferPointer?, method: UnsafeRawBufferPointer, path: UnsafeRawBufferPointer
    ) -> CompiledRoute? {
        let hostName = host.map(ByteMatch.hostWithoutPort)
        let found: Int? = patternBytes.withUnsafeBytes { arena in
            methodSpans.withUnsafeBufferPointer { methodSpans in
                matchers.withUnsafeBufferPointer { matchers in
                    index.firstMatch(
                        host: hostName, method: method, path: path,
                        matchers: matchers, arena: arena, methodSpans: methodSpans)
                }
            }
        }
        guard let found else { return nil }
        return compiled[found]
    }

    /// The same answer as `match` by checking every route in order: the index's test
    /// oracle and its baseline in benchmarks.
    func linearMatch(
        host: UnsafeRawBufferPointer?, method: UnsafeRawBufferPointer, path: UnsafeRawBufferPointer
    ) -> CompiledRoute? {
        let hostName = host.map(ByteMatch.hostWithoutPort)
        let found: Int? = patternBytes.withUnsafeBytes { arena in
            methodSpans.withUnsafeBufferPointer { methodSpans in
                matchers.withUnsafeBufferPointer { matchers in
                    var index = 0
                    while index < matchers.count {
                        if matchers[index].matches(
                            host: hostName, method: method, path: path, arena: arena, methodSpans: methodSpans) {
                            return index
                        }
                        index += 1
                    }
                    return nil
                }
            }
        }
        guard let found else { return nil }
        return compiled[found]
    }
}
