import FaultlineHTTP
import FaultlineHTTP2
import FaultlineLog
import FaultlineConfig

/// Decides how a request starts, once its head has arrived: refused by Faultline (CONNECT,
/// a bad Host, a declared body over the limit, no route), or routed to an upstream with
/// the faults that fired on it. Protocol-neutral: any adapter starts its exchanges here.
struct ExchangeStarter {
    /// The configuration the exchange will run on, whatever reloads happen meanwhile.
    let snapshot: ConfigSnapshot
    /// The client's address, for X-Forwarded-For and fault records.
    let clientIP: String
    /// "http" or "https" (the listener's), for X-Forwarded-Proto.
    let scheme: StaticString
    /// The live sessions a request may belong to.
    let sessions: SessionRegistry
    /// Monotonic now (ns): renews the session a request runs in, and places it in scenario phases.
    let now: UInt64
    /// The global scenarios; nil where none can run (unit tests).
    let scenarios: ScenarioBoard?
    /// The host a forward-proxy client asked for; nil on a reverse-proxy listener.
    var destination: ForwardDestination?
    /// The loop's memory to compose an HTTP/1 upstream head in; nil where there is no loop.
    var headScratch: HeadScratch?

    init(snapshot: ConfigSnapshot, clientIP: String, scheme: StaticString, sessions: SessionRegistry = SessionRegistry(),
         now: UInt64 = 0, scenarios: ScenarioBoard? = nil) {
        self.snapshot = snapshot
        self.clientIP = clientIP
        self.scheme = scheme
        self.sessions = sessions
        self.now = now
        self.scenarios = scenarios
    }

    /// The exchange for `head` (its target in origin form); `trace` is its log record, if
    /// one is kept; `mayKeepAlive` is false once the connection drains.
    func start(_ head: HTTPHead, trace: ExchangeTrace?, mayKeepAlive: Bool) -> Exchange {
        start(head, trace: trace, membership: SessionMembership(head, clientIP: clientIP, sessions: sessions, now: now),
              mayKeepAlive: mayKeepAlive)
    }

    /// `start(_:trace:mayKeepAlive:)` for a request whose session is already resolved
    /// (the adapters resolve it first: whether a journal wants the record depends on it).
    /// `body` is the request body read for `json` conditions (`readsBody(for:)`), if any.
    func start(_ head: HTTPHead, trace: ExchangeTrace?, membership: SessionMembership, mayKeepAlive: Bool,
               body: MatchBody? = nil) -> Exchange {
        var setup = ExchangeSetup(start: .proxy, head: head)
        setup.timeouts.clientIdleMs = snapshot.config.clientTimeouts.idleMs
        setup.maxRequestBodyBytes = snapshot.config.limits.maxRequestBodyBytes
        if let trace { membership.note(on: trace) }
        guard let (matched, decider, phase) = admit(head, setup: &setup, session: membership.session, body: body),
              let route = resolveRequestedHost(matched, setup: &setup) else {
            if let expect = head.headers.first("expect") {
                setup.refusedExpectingContinue = expect.lowercased() == "100-continue"
            }
            return Exchange(snapshot: snapshot, route: nil, upstreamHead: .none,
                            machine: ExchangeMachine(setup: setup, mayKeepAlive: mayKeepAlive))
        }
        trace?.route = route.name
        trace?.upstream = route.upstream.name
        if let trace {
            trace.scenarioPhase = phase ?? membership.session?.scenarios.phaseInEffect(now: now) ?? scenarios?.phaseInEffect(now: now)
        }
        let decision = decider.decide(route: route)
        var plan = decision.isEmpty ? FaultPlan() : FaultPlan(decision, routeName: route.name)
        let controls = snapshot.config.faultHeaders
        if controls.enabled { plan.applyRequestHeaders(head.headers, controls: controls) }
        if let trace, !plan.names.isEmpty {
            trace.faults = plan.names
            logFaults(plan, route: route, head: head, requestID: trace.requestID, log: snapshot.log)
        }
        let upstreamHead = self.upstreamHead(for: head, framing: setup.requestFraming, route: route,
                                             requestID: trace?.visibleRequestID,
                                             dropping: dropped(controls: controls, membership: membership))
        setup.start = .proxy
        setup.upstreamName = route.upstream.name
        setup.timeouts.connectMs = route.upstream.timeouts.connectMs
        setup.timeouts.responseMs = route.upstream.timeouts.responseMs
        setup.timeouts.tunnelIdleMs = route.upstream.timeouts.tunnelIdleMs
        if !plan.isEmpty && controls.markResponses { setup.faultMarker = plan.names.joined(separator: ", ") }
        // Consumed, not copied: the head bytes, plan and decision are the exchange's from here on.
        let exchange = Exchange(snapshot: snapshot, route: route, upstreamHead: consume upstreamHead,
                                machine: ExchangeMachine(setup: setup, plan: consume plan, mayKeepAlive: mayKeepAlive),
                                decision: consume decision, decider: decider)
        if route.upstream.isForwarded { exchange.destination = destination }
        return exchange
    }

    /// A route naming no upstream sends the request to the host the client asked for: the
    /// route is copied with the configured upstream for that exact host, port and scheme when
    /// there is one (its timeouts, pool, trust and pins apply), else with an upstream made for
    /// it (name `host:port`, the defaults). On a reverse-proxy listener there is no such host: 502.
    private func resolveRequestedHost(_ route: CompiledRoute, setup: inout ExchangeSetup) -> CompiledRoute? {
        guard route.upstream.isRequestedHost else { return route }
        guard let destination else {
            setup.start = .refuse(status: 502, message: "route \"\(route.name)\" names no upstream: only requests to a forward-proxy listener name the host they go to")
            return nil
        }
        let target = destination.target
        if let configured = snapshot.configuredUpstream(for: target, tls: destination.tls) {
            return CompiledRoute(index: route.index, name: route.name, upstream: configured, faults: route.faults)
        }
        let upstream = UpstreamConfig(name: target.description, scheme: destination.tls ? "https" : "http",
                                      host: target.host, port: target.port, hostHeader: .preserve)
        return CompiledRoute(index: route.index, name: route.name, upstream: upstream, faults: route.faults)
    }

    /// The request fields never forwarded: the fault control headers (when on) and the
    /// session header (always, known id or not).
    private func dropped(controls: FaultHeadersConfig, membership: SessionMembership) -> [String] {
        var fields = controls.enabled ? [controls.delayHeader, controls.statusHeader] : []
        if membership.namedByHeader { fields.append(Session.header) }
        return fields
    }

    /// The head the route's upstream receives, in the form its protocol sends. The route is
    /// passed rather than its upstream: passed from `start`, `route.upstream` was copied on
    /// every request (a retain and a release of each of its references), which the disassembly
    /// no longer shows once the route itself crosses the call.
    private func upstreamHead(for head: HTTPHead, framing: BodyFraming, route: CompiledRoute, requestID: String?,
                              dropping dropped: [String]) -> UpstreamRequestHead {
        guard route.upstream.httpProtocol != .http11 else {
            return .http1(RequestHeadWriter.upstreamHead(for: head, framing: framing, clientIP: clientIP, scheme: scheme,
                                                         upstream: route.upstream, upgrade: head.isUpgrade, requestID: requestID,
                                                         dropping: dropped, scratch: headScratch))
        }
        let value = RequestHeadWriter.upstreamHeadValue(for: head, framing: framing, clientIP: clientIP, scheme: scheme,
                                                        upstream: route.upstream, upgrade: head.isUpgrade, requestID: requestID,
                                                        dropping: dropped, keepTrailersTE: Self.listsTrailers(head))
        return .http2(value.http2RequestFields(scheme: route.upstream.scheme))
    }

    /// TE is hop-by-hop and never reaches an HTTP/1 upstream, but `TE: trailers` is how a
    /// gRPC client says it understands trailers, and HTTP/2 carries it end to end (RFC 9113
    /// §8.2.2): for an HTTP/2 upstream it is kept when the client's TE lists `trailers`.
    private static func listsTrailers(_ head: HTTPHead) -> Bool {
        var listed = false
        for index in 0..<head.headers.count {
            head.headers.withField(index) { name, value in
                if ASCII.equalsIgnoringCase(name, "te") && ASCII.listContains(value, token: "trailers") { listed = true }
            }
        }
        return listed
    }

    /// The route for `head`, the decider of its faults (the session's for a session rule, the
    /// phase's for a scenario rule) and the scenario phase whose rule took it, or nil with the
    /// refusal set in `setup`. Order: the session's rules, its scenarios, the global
    /// scenarios, the global routes. `body` is the one read for `json` conditions, if any.
    private func admit(_ head: HTTPHead, setup: inout ExchangeSetup, session: Session?,
                       body: MatchBody?) -> (CompiledRoute, FaultDecider, ActivePhase?)? {
        if head.method == "CONNECT" {
            setup.start = .refuse(status: 405, message: "CONNECT is not supported: Faultline is a reverse proxy")
            return nil
        }
        let hostCount = head.headers.count(of: "host")
        if hostCount > 1 || (hostCount == 0 && head.versionMinor >= 1) {
            // RFC 9112 §3.2: an HTTP/1.1 request needs exactly one Host; two disagree about the target.
            setup.start = .refuse(status: 400, message: hostCount == 0 ? "bad request: HTTP/1.1 request without a Host header"
                                                                       : "bad request: more than one Host header")
            setup.clientKeepAlive = false
            return nil
        }
        let limit = setup.maxRequestBodyBytes
        if limit > 0, let length = head.contentLength, length > UInt64(limit) {
            setup.start = .refuse(status: 413, message: "request body of \(length) bytes exceeds the limit of \(limit) bytes")
            return nil
        }
        if let session {
            if let route = match(head, session: session.ruleSet, body: body) { return (route, session.ruleSet.decider, nil) }
            if let hit = session.scenarios.route(head, client: clientIP, body: body, global: snapshot.routes, now: now) {
                return (hit.route, hit.decider, hit.phase)
            }
        }
        if let hit = scenarios?.route(head, client: clientIP, body: body, global: snapshot.routes, now: now) {
            return (hit.route, hit.decider, hit.phase)
        }
        guard let route = match(head, session: nil, body: body) else {
            setup.start = .refuse(status: 404, message: "no route matches \(head.method) \(String(decoding: head.path, as: UTF8.self))")
            return nil
        }
        return (route, snapshot.faults, nil)
    }

    /// The first route of `session`'s rules (nil: of the global routes) that takes `head`.
    private func match(_ head: HTTPHead, session: SessionRuleSet?, body: MatchBody?) -> CompiledRoute? {
        guard let session else { return snapshot.routes.match(head, client: clientIP, body: body) }
        return session.route(head, client: clientIP, body: body, global: snapshot.routes)
    }

    /// How many body bytes to read before routing `head` (nil: route it now): a body follows
    /// (`bodyFollows`), some rule that could take it (the routes, the session's rules, a
    /// running scenario phase's) has `json` conditions, and body matching is on. A declared
    /// length over the limit is not read: no `json` condition can match it.
    static func matchBodyLimit(for head: HTTPHead, bodyFollows: Bool, session: Session?, snapshot: ConfigSnapshot,
                               scenarios: ScenarioBoard?) -> Int? {
        let limit = snapshot.config.limits.maxMatchBodyBytes
        guard bodyFollows, limit > 0 else { return nil }
        let reads = snapshot.routes.readsBody || session.map { $0.ruleSet.readsBody || $0.scenarios.readsBody() } == true
            || scenarios?.readsBody() == true
        guard reads else { return nil }
        if let length = head.contentLength, length == 0 || length > UInt64(limit) { return nil }
        return limit
    }

    /// A record of its own for the faults that fired on a request (`log.fault_events`).
    private func logFaults(_ plan: FaultPlan, route: CompiledRoute, head: HTTPHead, requestID: String, log: TrafficLog) {
        guard log.faultEvents, !plan.names.isEmpty else { return }
        var record = LogRecord(kind: .fault, requestID: requestID)
        record.clientAddress = clientIP
        record.method = head.method
        record.setTarget(head.targetString, policy: log.policy)
        record.route = route.name
        record.upstream = route.upstream.name
        record.faults = plan.names
        record.setMessage("injected \(plan.names.joined(separator: ", "))", policy: log.policy)
        log.write(event: record)
    }
}
