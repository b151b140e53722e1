extension ConfigLoader {
    /// The routes in order. With no routes and exactly one upstream, a catch-all route
    /// named "default" is implied so the smallest useful config is just an upstream. With a
    /// forward-proxy listener (`forwardMode`) a route without `upstream` sends the request to
    /// the host the client asked for (its upstream is ""), and so does the implied route.
    static func readRoutes(
        _ top: FieldReader, upstreamNames: [String]?, forwardMode: Bool = false, _ context: LoadContext,
        _ diagnostics: inout Diagnostics
    ) -> [RouteConfig] {
        let path = top.path("routes")
        var items: [JSONValue] = []
        if let value = top["routes"] {
            guard case .array(let array) = value else {
                diagnostics.add(path, "expected an array of routes, got \(value.rendered)")
                return []
            }
            items = array
        }
        if items.isEmpty {
            if forwardMode { return [RouteConfig(name: "default", upstream: "")] }
            guard let upstreamNames else { return [] }
            if upstreamNames.count == 1, let only = upstreamNames.first {
                return [RouteConfig(name: "default", upstream: only)]
            }
            if upstreamNames.count > 1 {
                let got = top["routes"]?.rendered ?? "nothing"
                diagnostics.add(
                    path,
                    "expected at least one route when several upstreams are defined "
                        + "(\(upstreamNames.joined(separator: ", "))), got \(got)")
            }
            return []
        }
        var routes: [RouteConfig] = []
        var firstUse: [String: String] = [:]
        for (index, item) in items.enumerated() {
            let routePath = Diagnostics.join(path, index)
            guard let route = readRoute(item, path: routePath, upstreamNames: upstreamNames,
                                        upstreamOptional: forwardMode, context, &diagnostics) else {
                continue
            }
            if let earlier = firstUse[route.name] {
                diagnostics.add(
                    Diagnostics.join(routePath, "name"),
                    "duplicate route name \(JSONValue.quoted(route.name)) (already used by \(earlier))")
            } else {
                firstUse[route.name] = routePath
            }
            routes.append(route)
        }
        return routes
    }

    /// One route object at `path`; nil after reporting when it is unusable. Also reads the
    /// single rule the admin API receives (`parseRule`).
    /// With `upstreamOptional` (a session's rule) a missing `upstream` is read as "" (the
    /// upstream of the global route the request matches); otherwise it is the only upstream
    /// when there is exactly one, and required when there are several.
    static func readRoute(
        _ value: JSONValue, path: String, upstreamNames: [String]?, known: [String] = ConfigKeys.route,
        upstreamOptional: Bool = false, _ context: LoadContext, _ diagnostics: inout Diagnostics
    ) -> RouteConfig? {
        guard let object = FieldReader(value, path: path, known: known, diagnostics: &diagnostics) else {
            return nil
        }
        var name = path
        if let text = object.string("name", expected: "a non-empty string", &diagnostics) {
            if text.isEmpty {
                diagnostics.add(object.path("name"), "expected a non-empty string, got \"\"")
            } else {
                name = text
            }
        }
        let match = object.object("match", known: ConfigKeys.routeMatch, &diagnostics)
            .map { readMatch($0, &diagnostics) } ?? RouteMatch()

        let inherits = upstreamOptional && object["upstream"] == nil
        // With one upstream there is nothing to choose: a route (or an admin rule) may leave
        // it out, as a file may leave out its routes. Examples then work against any config.
        let implied = object["upstream"] == nil && upstreamNames?.count == 1 ? upstreamNames?.first : nil
        let upstream = inherits ? "" : implied ?? object.requiredString("upstream", expected: "the name of an upstream", &diagnostics)
        if !inherits, let upstream, let upstreamNames, !upstreamNames.contains(upstream) {
            diagnostics.add(
                object.path("upstream"),
                "unknown upstream \(JSONValue.quoted(upstream)) (known: \(upstreamNames.joined(separator: ", ")))")
        }

        let faults = readFaults(object, context, &diagnostics)
        guard let upstream else { return nil }
        return RouteConfig(name: name, match: match, upstream: upstream, faults: faults)
    }

    /// A `match` object (also a `not` inside one).
    static func readMatch(_ object: FieldReader, _ diagnostics: inout Diagnostics) -> RouteMatch {
        var host: HostPattern?
        if let text = object.string("host", expected: "a host name or \"*.domain\" wildcard", &diagnostics) {
            host = HostPattern(text)
            if host == nil {
                diagnostics.add(
                    object.path("host"),
                    "expected a host name, IP literal or \"*.domain\" wildcard without a port, got \(JSONValue.quoted(text))")
            }
        }
        return RouteMatch(
            host: host, methods: readMethods(object, &diagnostics), path: readPath(object, &diagnostics),
            headers: readFieldConditions(object, "headers", &diagnostics),
            query: readFieldConditions(object, "query", &diagnostics),
            cookies: readFieldConditions(object, "cookies", &diagnostics),
            client: readClientNetworks(object, "client", &diagnostics),
            json: readJSONConditions(object, &diagnostics),
            not: object.object("not", known: ConfigKeys.routeMatch, &diagnostics).map { readMatch($0, &diagnostics) })
    }

    private static func readMethods(_ object: FieldReader, _ diagnostics: inout Diagnostics) -> [String]? {
        guard let value = object["methods"] else { return nil }
        let path = object.path("methods")
        guard case .array(let items) = value, !items.isEmpty else {
            diagnostics.add(path, "expected a non-empty array of HTTP method tokens, got \(value.rendered)")
            return nil
        }
        var methods: [String] = []
        for (index, item) in items.enumerated() {
            if case .string(let method) = item, HTTPToken.isToken(method) {
                // Methods are case-sensitive (RFC 9110 §9.1) and requests arrive upper case
                // (llhttp accepts only its upper-case methods): "get" would never match.
                if method != method.uppercased() {
                    diagnostics.add(Diagnostics.join(path, index),
                                    "expected an upper-case HTTP method (methods are case-sensitive), got \(JSONValue.quoted(method)); did you mean \(JSONValue.quoted(method.uppercased()))?")
                } else {
                    methods.append(method)
                }
            } else {
                diagnostics.add(Diagnostics.join(path, index), "expected an HTTP method token, got \(item.rendered)")
            }
        }
        return methods
    }

    private static func readPath(_ object: FieldReader, _ diagnostics: inout Diagnostics) -> PathPattern? {
        let kinds = ["path", "path_prefix", "path_glob"]
        let present = kinds.filter { object[$0] != nil }
        if present.count > 1 {
            diagnostics.add(
                object.path,
                "expected at most one of \(kinds.joined(separator: ", ")), got \(present.joined(separator: ", "))")
            return nil
        }
        guard let key = present.first,
              let text = object.string(key, expected: "a path starting with \"/\"", &diagnostics) else {
            return nil
        }
        let got = JSONValue.quoted(text)
        let path = object.path(key)
        guard text.hasPrefix("/") else {
            diagnostics.add(path, "expected a path starting with \"/\", got \(got)")
            return nil
        }
        // Request paths arrive percent-encoded, so anything outside visible ASCII could never match.
        guard text.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            diagnostics.add(path, "expected a path of visible ASCII characters (percent-encode others), got \(got)")
            return nil
        }
        if key != "path_glob" && text.contains("?") {
            diagnostics.add(path, "expected a path without \"?\" (the query is not matched; use path_glob for a one-character wildcard), got \(got)")
            return nil
        }
        switch key {
        case "path": return .exact(text)
        case "path_prefix": return .prefix(text)
        default: return .glob(text)
        }
    }
}
