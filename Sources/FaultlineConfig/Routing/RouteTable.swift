import FaultlineHTTP

/// The routes of one config snapshot compiled for matching on the hot path: patterns
/// are byte arrays and lookups compare raw request bytes without Foundation or allocation.
public final class RouteTable: Sendable {
    // Matchers and results live in parallel arrays so the scan borrows matchers in
    // place; iterating a struct of both copied (and retained) every field per route.
    private let matchers: [CompiledMatcher]
    private let compiled: [CompiledRoute]
    /// By matcher position: the route's headers/query/cookies/client/not conditions, if any.
    private let conditions: [RequestConditions?]
    private let patternBytes: [UInt8]
    private let methodSpans: [ByteSpan]
    /// Candidate lists per request literal, in front of the matchers.
    private let index: RouteIndex

    /// Compiles `config.routes` in order. A route naming an upstream missing from the
    /// config (impossible for a loaded config, possible for a hand-built one) is skipped;
    /// one naming none (a forward proxy's) goes to `UpstreamConfig.requestedHost`.
    public convenience init(config: ProxyConfig) {
        self.init(entries: config.routes.enumerated().compactMap { index, route in
            (route.upstream.isEmpty ? UpstreamConfig.requestedHost : config.upstream(named: route.upstream)).map {
                (route.match, CompiledRoute(index: index, name: route.name, upstream: $0, faults: route.faults))
            }
        })
    }

    /// Compiles `entries` in order: each match condition with the route it answers (a
    /// session's rules, whose upstreams are resolved by their owner).
    public init(entries: [(match: RouteMatch, route: CompiledRoute)]) {
        var matchers: [CompiledMatcher] = []
        var compiled: [CompiledRoute] = []
        var conditions: [RequestConditions?] = []
        var arena = PatternArena()
        for entry in entries {
            matchers.append(CompiledMatcher(entry.match, arena: &arena))
            conditions.append(entry.match.hasRequestConditions ? RequestConditions(entry.match, arena: &arena) : nil)
            compiled.append(entry.route)
        }
        self.matchers = matchers
        self.conditions = conditions
        self.compiled = compiled
        self.patternBytes = arena.bytes
        self.methodSpans = arena.methodSpans
        self.index = arena.bytes.withUnsafeBytes { RouteIndex(matchers: matchers, arena: $0) }
    }

    /// The compiled routes in match order.
    public var routes: [CompiledRoute] {
        compiled
    }

    /// First route whose host, method and path all match, for a request with no headers,
    /// query or client (routes with such conditions see them absent). host is the Host
    /// header value (may include ":port", may be nil); path excludes the query. Only the
    /// routes the index selects are checked; the answer is always the linear scan's.
    public func match(
        host: UnsafeRawBufferPointer?, method: UnsafeRawBufferPointer, path: UnsafeRawBufferPointer
    ) -> CompiledRoute? {
        match(host: host, method: method, path: path, request: .empty)
    }

    /// First route all of whose conditions `head` from `client` meets (the proxy's lookup).
    public func match(_ head: HTTPHead, client: String) -> CompiledRoute? {
        let host = head.headers.firstIndex(of: "host")
        let target = head.target
        let question = target.firstIndex(of: UInt8(ascii: "?"))
        let pathEnd = question ?? target.count
        let queryStart = question.map { $0 + 1 } ?? target.count
        return head.headers.bytes.withUnsafeBytes { raw -> CompiledRoute? in
            head.headers.fields.withUnsafeBufferPointer { fields in
                target.withUnsafeBytes { target -> CompiledRoute? in
                    let hostBytes = host.map { index -> UnsafeRawBufferPointer in
                        let field = fields[index]
                        return UnsafeRawBufferPointer(rebasing: raw[Int(field.valueStart)..<Int(field.valueEnd)])
                    }
                    let request = RouteRequest(
                        headerBytes: raw, fields: fields,
                        query: UnsafeRawBufferPointer(rebasing: target[queryStart...]), client: client)
                    var method = head.method
                    return method.withUTF8 { method in
                        match(host: hostBytes, method: UnsafeRawBufferPointer(method),
                              path: UnsafeRawBufferPointer(rebasing: target[..<pathEnd]), request: request)
                    }
                }
            }
        }
    }

    func match(
        host: UnsafeRawBufferPointer?, method: UnsafeRawBufferPointer, path: UnsafeRawBufferPointer, request: RouteRequest
    ) -> CompiledRoute? {
        let hostName = host.map(ByteMatch.hostWithoutPort)
        let found: Int? = patternBytes.withUnsafeBytes { arena in
            methodSpans.withUnsafeBufferPointer { methodSpans in
                matchers.withUnsafeBufferPointer { matchers in
                    conditions.withUnsafeBufferPointer { conditions in
                        index.firstMatch(
                            host: hostName, method: method, path: path,
                            matchers: matchers, arena: arena, methodSpans: methodSpans,
                            request: request, conditions: conditions)
                    }
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
                            host: hostName, method: method, path: path, arena: arena, methodSpans: methodSpans),
                           !matchers[index].hasConditions || conditions[index]?.matches(
                               .empty, host: hostName, method: method, path: path, arena: arena, methodSpans: methodSpans) == true {
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
