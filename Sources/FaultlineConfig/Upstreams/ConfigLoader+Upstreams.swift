extension ConfigLoader {
    /// The valid upstreams, and the names of all declared ones (valid or not) so routes
    /// naming a broken upstream are not also reported as naming an unknown one. Names
    /// are nil when the section itself is unusable, which disables that route check.
    /// With `optional` (a forward-proxy listener, whose requests name their own host) the
    /// section may be absent or empty.
    static func readUpstreams(
        _ top: FieldReader, optional: Bool = false, _ context: inout LoadContext, _ diagnostics: inout Diagnostics
    ) -> (upstreams: [UpstreamConfig], names: [String]?) {
        let path = top.path("upstreams")
        guard let value = top["upstreams"] else {
            if optional { return ([], []) }
            diagnostics.add(path, "expected an object of named upstreams, got nothing")
            return ([], nil)
        }
        guard case .object(let members) = value else {
            diagnostics.add(path, "expected an object of named upstreams, got \(value.rendered)")
            return ([], nil)
        }
        if members.isEmpty && !optional {
            diagnostics.add(path, "expected at least one upstream, got {}")
        }
        let names = members.keys.sorted()
        var upstreams: [UpstreamConfig] = []
        for name in names {
            guard let member = members[name] else { continue }
            guard isValidUpstreamName(name) else {
                diagnostics.add(
                    path,
                    "expected upstream names of letters, digits, \"_\", \".\" and \"-\", got \(JSONValue.quoted(name))")
                continue
            }
            if let upstream = readUpstream(name: name, member, path: Diagnostics.join(path, name), &context, &diagnostics) {
                upstreams.append(upstream)
            }
        }
        return (upstreams, names)
    }

    private static func readUpstream(
        name: String, _ value: JSONValue, path: String, _ context: inout LoadContext, _ diagnostics: inout Diagnostics
    ) -> UpstreamConfig? {
        guard let object = FieldReader(value, path: path, known: ConfigKeys.upstream, diagnostics: &diagnostics) else {
            return nil
        }
        var url: UpstreamURL?
        let urlText = object.requiredString("url", expected: "an http:// or https:// URL", &diagnostics)
        if let urlText {
            do {
                url = try UpstreamURL(parsing: urlText)
            } catch {
                diagnostics.add(object.path("url"), error)
            }
        }
        // The TLS members are checked whenever the URL says https, even if it is otherwise
        // invalid, so one pass reports everything.
        var tls: UpstreamTLSConfig?
        if urlText?.lowercased().hasPrefix("https://") == true {
            tls = readUpstreamTLS(object, urlHost: url?.host, &context, &diagnostics)
        } else if url != nil {
            refuseUpstreamTLSKeys(object, &diagnostics)
        }

        var hostHeader = HostHeaderPolicy.preserve
        let policies = HostHeaderPolicy.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
        if let value = object["host_header"] {
            if case .string(let text) = value, let policy = HostHeaderPolicy(rawValue: text) {
                hostHeader = policy
            } else {
                diagnostics.add(object.path("host_header"), "expected \(policies), got \(value.rendered)")
            }
        }

        let defaults = UpstreamTimeouts()
        var timeouts = defaults
        if let timeoutObject = object.object("timeouts_ms", known: ConfigKeys.upstreamTimeouts, &diagnostics) {
            timeouts = UpstreamTimeouts(
                connectMs: timeoutObject.int("connect", in: timeoutRange, default: defaults.connectMs, &diagnostics),
                responseMs: timeoutObject.int("response", in: timeoutRange, default: defaults.responseMs, &diagnostics),
                idleMs: timeoutObject.int("idle", in: timeoutRange, default: defaults.idleMs, &diagnostics),
                tunnelIdleMs: timeoutObject.int("tunnel_idle", in: timeoutRange, default: defaults.tunnelIdleMs, &diagnostics))
        }
        let maxIdle = object.int("max_idle_connections", in: 0...100_000, default: UpstreamConfig.defaultMaxIdleConnections, &diagnostics)
        let httpProtocol = readUpstreamProtocol(object, isTLS: url.map { $0.scheme == "https" }, &diagnostics)

        guard let url else { return nil }
        return UpstreamConfig(
            name: name, scheme: url.scheme, host: url.host, port: url.port, hostHeader: hostHeader,
            timeouts: timeouts, maxIdleConnections: maxIdle, tls: tls, httpProtocol: httpProtocol)
    }

    /// `protocol`: h2 needs TLS (ALPN), h2c a plain connection; `isTLS` is nil when the
    /// URL is invalid (then only the value itself is checked).
    private static func readUpstreamProtocol(
        _ object: FieldReader, isTLS: Bool?, _ diagnostics: inout Diagnostics
    ) -> UpstreamProtocol {
        let chosen = object.choice("protocol", default: UpstreamProtocol.http11, &diagnostics)
        switch (chosen, isTLS) {
        case (.h2, false?):
            diagnostics.add(object.path("protocol"), "\"h2\" needs an https:// upstream (ALPN); use \"h2c\" for plain HTTP/2")
        case (.h2c, true?):
            diagnostics.add(object.path("protocol"), "\"h2c\" is plain-text HTTP/2; an https:// upstream uses \"h2\"")
        default:
            break
        }
        return chosen
    }

    /// `[A-Za-z0-9_.-]+`: names appear in logs, metrics labels and admin URLs.
    private static func isValidUpstreamName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "-"):
                true
            default:
                false
            }
        }
    }
}
