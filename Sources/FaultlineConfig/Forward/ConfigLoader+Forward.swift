extension ConfigLoader {
    /// A listener's `mode`: "reverse" (the default) or "forward".
    static func readListenerMode(_ object: FieldReader, _ diagnostics: inout Diagnostics) -> Bool {
        guard let value = object["mode"] else { return false }
        if case .string(let text) = value, text == "forward" || text == "reverse" { return text == "forward" }
        diagnostics.add(object.path("mode"), "expected \"reverse\" or \"forward\", got \(value.rendered)")
        return false
    }

    /// The `forward` object of a listener in forward mode (defaults when absent). A listener
    /// off loopback must say who may use it (`credentials` or `clients`): Faultline is never
    /// an open proxy.
    static func readForward(
        _ listener: FieldReader, address: SocketAddressSpec?, _ context: LoadContext, _ diagnostics: inout Diagnostics
    ) -> ForwardProxyConfig? {
        let object = listener.object("forward", known: ConfigKeys.forward, &diagnostics)
        var caCertificate = ForwardProxyConfig.defaultCACertificatePath
        var caKey = ForwardProxyConfig.defaultCAKeyPath
        if let ca = object?.object("ca", known: ConfigKeys.forwardCA, &diagnostics) {
            // The CA may not exist yet: it is minted on first use, so only the paths are read.
            if let text = ca.requiredString("certificate", expected: "a file path", &diagnostics), !text.isEmpty {
                caCertificate = context.resolve(text)
            }
            if let text = ca.requiredString("key", expected: "a file path", &diagnostics), !text.isEmpty {
                caKey = context.resolve(text)
            }
        }
        let intercept = object.map { readHostPatterns($0, "intercept", &diagnostics) } ?? []
        let passThrough = object.map { readHostPatterns($0, "pass_through", &diagnostics) } ?? []
        let clients = object.map { readClientNetworks($0, "clients", &diagnostics) } ?? []
        let credentials = object.map { readCredentials($0, context, &diagnostics) } ?? []
        var refusals: Int?
        if let value = object?["pass_through_after_refusals"], let object {
            refusals = FieldReader.int(value, in: 1...1_000_000, path: object.path("pass_through_after_refusals"), &diagnostics)
        }
        let maxTunnels = object?.int("max_tunnels", in: 1...1_000_000, default: ForwardProxyConfig.defaultMaxTunnels, &diagnostics)
            ?? ForwardProxyConfig.defaultMaxTunnels
        var upstreamCA: String?
        if let object {
            upstreamCA = readFile(object, "upstream_ca", required: false, context, &diagnostics)
        }
        if let address, !AdminConfig(address: address, token: nil, configDirectory: nil).isLoopback,
           clients.isEmpty, credentials.isEmpty {
            diagnostics.add(listener.path("forward.credentials"),
                            "required (or forward.clients) when a forward-proxy listener is not on a loopback address (\(address)); anyone who can reach it could use it as an open proxy: add credentials, an allow-list of client networks, or bind 127.0.0.1")
        }
        return ForwardProxyConfig(
            caCertificatePath: caCertificate, caKeyPath: caKey, intercept: intercept, passThrough: passThrough,
            allowedClients: clients, credentials: credentials, passThroughAfterRefusals: refusals,
            maxTunnels: maxTunnels, upstreamCAPath: upstreamCA)
    }

    private static func readHostPatterns(_ object: FieldReader, _ key: String, _ diagnostics: inout Diagnostics) -> [HostPattern] {
        guard let value = object[key] else { return [] }
        let path = object.path(key)
        guard case .array(let items) = value else {
            diagnostics.add(path, "expected an array of host names or \"*.domain\" wildcards, got \(value.rendered)")
            return []
        }
        var patterns: [HostPattern] = []
        for (index, item) in items.enumerated() {
            if case .string(let text) = item, let pattern = HostPattern(text) {
                patterns.append(pattern)
            } else {
                diagnostics.add(Diagnostics.join(path, index),
                                "expected a host name, IP literal or \"*.domain\" wildcard without a port, got \(item.rendered)")
            }
        }
        return patterns
    }

    private static func readCredentials(
        _ object: FieldReader, _ context: LoadContext, _ diagnostics: inout Diagnostics
    ) -> [ForwardCredential] {
        guard let value = object["credentials"] else { return [] }
        let path = object.path("credentials")
        guard case .array(let items) = value, !items.isEmpty else {
            diagnostics.add(path, "expected a non-empty array of {\"user\": ..., \"password_env\": ...}, got \(value.rendered)")
            return []
        }
        var credentials: [ForwardCredential] = []
        for (index, item) in items.enumerated() {
            guard let entry = FieldReader(item, path: Diagnostics.join(path, index), known: ConfigKeys.forwardCredential,
                                          diagnostics: &diagnostics) else { continue }
            let user = entry.requiredString("user", expected: "a user name without \":\"", &diagnostics)
            if let user, user.isEmpty || user.contains(":") {
                // Basic credentials are "user:password": a colon in the user cannot be told apart.
                diagnostics.add(entry.path("user"), "expected a non-empty user name without \":\", got \(JSONValue.quoted(user))")
                continue
            }
            guard let variable = entry.requiredString("password_env", expected: "an environment variable name", &diagnostics) else {
                continue
            }
            guard let password = context.environment[variable], !password.isEmpty else {
                diagnostics.add(entry.path("password_env"), "environment variable \(variable) is not set or empty; set it to the proxy password")
                continue
            }
            if let user {
                credentials.append(ForwardCredential(user: user, password: password, passwordEnv: variable))
            }
        }
        return credentials
    }
}

extension ConfigLoader {
    /// The setup behind `faultline run --forward ADDR [--upstream-ca FILE] [--certs DIR]
    /// [--admin ADDR]` (no file): one forward-proxy listener intercepting every host, one
    /// route sending each request to the host the client asked for. Like the file, a
    /// listener off loopback is refused (there are no credentials on the command line).
    public static func oneForward(listen: String, admin: String? = nil, upstreamCA: String? = nil,
                                  certs: String? = nil) throws(ConfigErrors) -> ProxyConfig {
        var diagnostics = Diagnostics()
        var address: SocketAddressSpec?
        do {
            address = try SocketAddressSpec(parsing: listen)
        } catch {
            diagnostics.add("--forward", error)
        }
        if let address, !AdminConfig(address: address, token: nil, configDirectory: nil).isLoopback {
            diagnostics.add("--forward", "expected a loopback address (127.0.0.1:PORT, [::1]:PORT) on the command line, got \(JSONValue.quoted(listen)); on any other address a forward proxy needs forward.credentials or forward.clients: use a config file (config/forward-proxy.json)")
        }
        if let upstreamCA, let problem = ConfigFileCheck.problem(readingFileAt: upstreamCA) {
            diagnostics.add("--upstream-ca", "cannot read \(JSONValue.quoted(upstreamCA)): \(problem)")
        }
        let adminConfig = admin.flatMap { readAdminFlag($0, token: nil, configDirectory: nil, &diagnostics) }
        guard let address, diagnostics.errors.isEmpty else { throw ConfigErrors(errors: diagnostics.errors, file: nil) }
        var forward = ForwardProxyConfig(upstreamCAPath: upstreamCA)
        if let certs { forward = forward.withCertificates(in: certs) }
        return ProxyConfig(
            listeners: [ListenerConfig(address: address, forward: forward)],
            admin: adminConfig, upstreams: [], routes: [RouteConfig(name: "default", upstream: "")],
            har: HARConfig(enabled: adminConfig != nil),
            journal: JournalConfig(capacity: adminConfig == nil ? 0 : JournalConfig.defaultCapacity))
    }
}

extension ProxyConfig {
    /// The same configuration with every forward-proxy listener's CA in `certs` and/or
    /// trusting `upstreamCA` for the real hosts (`run --config FILE --certs DIR --upstream-ca FILE`).
    public func overridingForward(certs: String?, upstreamCA: String?) -> ProxyConfig {
        guard certs != nil || upstreamCA != nil else { return self }
        var copy = self
        for index in copy.listeners.indices {
            guard var forward = copy.listeners[index].forward else { continue }
            if let certs { forward = forward.withCertificates(in: certs) }
            if let upstreamCA { forward.upstreamCAPath = upstreamCA }
            copy.listeners[index].forward = forward
        }
        return copy
    }
}
