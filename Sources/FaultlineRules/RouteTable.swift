/// The routes of one config snapshot compiled for matching on the hot path: patterns
/// are byte arrays and lookups compare raw request bytes without Foundation or allocation.
public final class RouteTable: Sendable {
    // Matchers and results live in parallel arrays so the scan borrows matchers in
    // place; iterating a struct of both copied (and retained) every field per route.
    private let matchers: [CompiledMatcher]
    private let compiled: [CompiledRoute]
    private let patternBytes: [UInt8]
    private let methodSpans: [ByteSpan]

    /// Compiles `config.routes` in order. A route naming an upstream missing from the
    /// config (impossible for a loaded config, possible for a hand-built one) is skipped.
    public init(config: ProxyConfig) {
        var matchers: [CompiledMatcher] = []
        var compiled: [CompiledRoute] = []
        var arena = PatternArena()
        for (index, route) in config.routes.enumerated() {
            guard let upstream = config.upstream(named: route.upstream) else { continue }
            matchers.append(CompiledMatcher(route.match, arena: &arena))
            compiled.append(CompiledRoute(index: index, name: route.name, upstream: upstream, faults: route.faults))
        }
        self.matchers = matchers
        self.compiled = compiled
        self.patternBytes = arena.bytes
        self.methodSpans = arena.methodSpans
    }

    /// The compiled routes in match order.
    public var routes: [CompiledRoute] {
        compiled
    }

    /// First route whose host, method and path all match. host is the Host header value
    /// (may include ":port", may be nil); path excludes the query.
    public func match(
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

    /// Same as the buffer form, for tests and non-hot-path callers.
    public func match(host: String?, method: String, path: String) -> CompiledRoute? {
        var method = method
        var path = path
        return method.withUTF8 { methodBytes in
            path.withUTF8 { pathBytes in
                guard var host else {
                    return match(host: nil, method: UnsafeRawBufferPointer(methodBytes), path: UnsafeRawBufferPointer(pathBytes))
                }
                return host.withUTF8 { hostBytes in
                    match(
                        host: UnsafeRawBufferPointer(hostBytes),
                        method: UnsafeRawBufferPointer(methodBytes),
                        path: UnsafeRawBufferPointer(pathBytes))
                }
            }
        }
    }
}
