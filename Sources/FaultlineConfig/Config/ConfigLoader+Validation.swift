extension ConfigLoader {
    /// Validates the whole document, recording every problem; nil when the root is unusable.
    static func validate(_ root: JSONValue, _ context: inout LoadContext, _ diagnostics: inout Diagnostics) -> ProxyConfig? {
        guard let top = FieldReader(root, path: "", known: ConfigKeys.topLevel, diagnostics: &diagnostics) else {
            return nil
        }
        let workers = top.int("workers", in: 0...256, default: 0, &diagnostics)
        let workerAffinity = top.choice("worker_affinity", default: WorkerAffinity.none, &diagnostics)
        let listeners = readListeners(top, context, &diagnostics)
        let admin = readAdmin(top, context, &diagnostics)
        let demoOrigin = top.object("demo_origin", known: ConfigKeys.demoOrigin, &diagnostics)
            .flatMap { readAddress($0, &diagnostics) }
            .map(DemoOriginConfig.init(address:))
        let forwardMode = listeners.contains { $0.forward != nil }
        let (upstreams, upstreamNames) = readUpstreams(top, optional: forwardMode, &context, &diagnostics)
        let routes = readRoutes(top, upstreamNames: upstreamNames, forwardMode: forwardMode, context, &diagnostics)
        let clientTimeouts = readClientTimeouts(top, &diagnostics)
        let limits = readLimits(top, &diagnostics)
        let seed = top.uint64("seed", &diagnostics)
        let faultHeaders = readFaultHeaders(top, &diagnostics)
        let log = readLog(top, context, &diagnostics)
        let har = readHAR(top, &diagnostics)
        let http2 = readHTTP2(top, &diagnostics)
        let sessions = readSessions(top, &diagnostics)
        let journal = readJournal(top, &diagnostics)
        let scenarios = readScenarios(top, upstreamNames: upstreamNames, context, &diagnostics)
        // `$schema` lets editors find config/faultline.schema.json; the loader only checks its type.
        _ = top.string("$schema", expected: "a string", &diagnostics)
        return ProxyConfig(
            workers: workers, workerAffinity: workerAffinity, listeners: listeners, admin: admin, demoOrigin: demoOrigin,
            upstreams: upstreams, routes: routes, clientTimeouts: clientTimeouts,
            limits: limits, seed: seed, faultHeaders: faultHeaders, log: log, har: har, http2: http2,
            sessions: sessions, journal: journal, scenarios: scenarios)
    }

    /// The `address` member of a listener-like object.
    static func readAddress(_ object: FieldReader, _ diagnostics: inout Diagnostics) -> SocketAddressSpec? {
        guard let text = object.requiredString("address", expected: "host:port", &diagnostics) else { return nil }
        do {
            return try SocketAddressSpec(parsing: text)
        } catch {
            diagnostics.add(object.path("address"), error)
            return nil
        }
    }

    private static func readListeners(
        _ top: FieldReader, _ context: LoadContext, _ diagnostics: inout Diagnostics
    ) -> [ListenerConfig] {
        let path = top.path("listeners")
        guard let value = top["listeners"] else {
            diagnostics.add(path, "expected a non-empty array of listeners, got nothing")
            return []
        }
        guard case .array(let items) = value, !items.isEmpty else {
            diagnostics.add(path, "expected a non-empty array of listeners, got \(value.rendered)")
            return []
        }
        var listeners: [ListenerConfig] = []
        for (index, item) in items.enumerated() {
            let itemPath = Diagnostics.join(path, index)
            guard let object = FieldReader(item, path: itemPath, known: ConfigKeys.listener, diagnostics: &diagnostics) else {
                continue
            }
            let address = readAddress(object, &diagnostics)
            let tlsObject = object.object("tls", known: ConfigKeys.listenerTLS, &diagnostics)
            let tls = tlsObject.flatMap { readListenerTLS($0, context, &diagnostics) }
            let h2c = object.bool("h2c", default: false, &diagnostics)
            let deferAccept = object.bool("defer_accept", default: true, &diagnostics)
            let isForward = readListenerMode(object, &diagnostics)
            if !isForward && object["forward"] != nil {
                diagnostics.add(object.path("forward"), "applies to forward-proxy listeners only; add \"mode\": \"forward\"")
            }
            if isForward && (tlsObject != nil || h2c) {
                // Clients speak plain HTTP to a proxy (absolute-form and CONNECT); TLS starts inside the tunnel.
                diagnostics.add(object.path(tlsObject != nil ? "tls" : "h2c"), "does not apply to a forward-proxy listener: clients speak plain HTTP to a proxy and TLS inside CONNECT tunnels")
                continue
            }
            let forward = isForward ? readForward(object, address: address, context, &diagnostics) : nil
            if h2c && tlsObject != nil {
                // A TLS client picks HTTP/2 by ALPN; prior knowledge in cleartext cannot apply.
                diagnostics.add(object.path("h2c"), "h2c (HTTP/2 in cleartext) applies to plain listeners only; a TLS listener offers h2 by ALPN (tls.alpn)")
                continue
            }
            if let address, tlsObject == nil || tls != nil {
                listeners.append(ListenerConfig(address: address, tls: tls, h2c: h2c, forward: forward, deferAccept: deferAccept))
            }
        }
        return listeners
    }

    private static func readClientTimeouts(_ top: FieldReader, _ diagnostics: inout Diagnostics) -> ClientTimeouts {
        let defaults = ClientTimeouts()
        guard let object = top.object("timeouts_ms", known: ConfigKeys.clientTimeouts, &diagnostics) else {
            return defaults
        }
        return ClientTimeouts(
            headerMs: object.int("client_header", in: timeoutRange, default: defaults.headerMs, &diagnostics),
            idleMs: object.int("client_idle", in: timeoutRange, default: defaults.idleMs, &diagnostics),
            drainMs: object.int("drain", in: timeoutRange, default: defaults.drainMs, &diagnostics))
    }

    private static func readLimits(_ top: FieldReader, _ diagnostics: inout Diagnostics) -> Limits {
        let defaults = Limits()
        guard let object = top.object("limits", known: ConfigKeys.limits, &diagnostics) else { return defaults }
        return Limits(
            maxRequestLineBytes: object.int(
                "max_request_line_bytes", in: 64...Int.max, default: defaults.maxRequestLineBytes, &diagnostics),
            maxHeaderBytes: object.int(
                "max_header_bytes", in: 256...Int.max, default: defaults.maxHeaderBytes, &diagnostics),
            maxHeaderCount: object.int(
                "max_header_count", in: 1...10000, default: defaults.maxHeaderCount, &diagnostics),
            maxRequestBodyBytes: object.int(
                "max_request_body_bytes", in: 0...Int.max, default: defaults.maxRequestBodyBytes, &diagnostics),
            maxConnections: object.int(
                "max_connections", in: 1...Int.max, default: defaults.maxConnections, &diagnostics),
            maxConnectionsIsExplicit: object["max_connections"] != nil,
            maxMatchBodyBytes: object.int(
                "max_match_body_bytes", in: 0...Limits.matchBodyCeiling, default: defaults.maxMatchBodyBytes, &diagnostics))
    }

    /// Every `*_ms` timeout: at least 1 ms, at most one day.
    static let timeoutRange = 1...86_400_000
}
