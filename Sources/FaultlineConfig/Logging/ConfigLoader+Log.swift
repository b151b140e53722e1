extension ConfigLoader {
    /// The top-level `log` section; defaults when absent.
    static func readLog(_ top: FieldReader, _ context: LoadContext, _ diagnostics: inout Diagnostics) -> LogConfig {
        let defaults = LogConfig()
        guard let object = top.object("log", known: LogConfigKeys.log, &diagnostics) else { return defaults }
        let destination = object.choice("destination", default: defaults.destination, &diagnostics)
        var path: String?
        if let text = object.string("path", expected: "a file path", &diagnostics) {
            if text.isEmpty {
                diagnostics.add(object.path("path"), "expected a file path, got \"\"")
            } else if destination != .file {
                diagnostics.add(object.path("path"), "only used with \"destination\": \"file\"")
            } else {
                path = context.resolve(text)
            }
        } else if destination == .file, object["path"] == nil {
            diagnostics.add(object.path("path"), "expected a file path (required with \"destination\": \"file\"), got nothing")
        }
        return LogConfig(
            off: object.bool("off", default: defaults.off, &diagnostics),
            format: object.choice("format", default: defaults.format, &diagnostics),
            destination: destination,
            path: path,
            headers: object.bool("headers", default: defaults.headers, &diagnostics),
            bodies: object.bool("bodies", default: defaults.bodies, &diagnostics),
            headerMaxBytes: object.int(
                "header_max_bytes", in: LogConfigKeys.headerMaxBytes, default: defaults.headerMaxBytes, &diagnostics),
            bodyMaxBytes: object.int(
                "body_max_bytes", in: LogConfigKeys.bodyMaxBytes, default: defaults.bodyMaxBytes, &diagnostics),
            bodyTypes: readBodyTypes(object, default: defaults.bodyTypes, &diagnostics),
            tlsEvents: object.bool("tls_events", default: defaults.tlsEvents, &diagnostics),
            pinEvents: object.bool("pin_events", default: defaults.pinEvents, &diagnostics),
            faultEvents: object.bool("fault_events", default: defaults.faultEvents, &diagnostics),
            redact: readLogRedaction(object, &diagnostics))
    }

    private static func readBodyTypes(
        _ object: FieldReader, default defaultValue: [String], _ diagnostics: inout Diagnostics
    ) -> [String] {
        let what = "a media type such as \"text/*\" or \"application/json\""
        let types = logStrings(object, "body_types", what: what, &diagnostics) { text in
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            return parts.count == 2 && HTTPToken.isToken(String(parts[0])) && HTTPToken.isToken(String(parts[1]))
                && (parts[0] != "*" || parts[1] == "*")
        }
        return types?.map { $0.lowercased() } ?? defaultValue
    }

    private static func readLogRedaction(_ log: FieldReader, _ diagnostics: inout Diagnostics) -> LogConfigRedaction {
        guard let object = log.object("redact", known: LogConfigKeys.redact, &diagnostics) else {
            return LogConfigRedaction()
        }
        func names(_ key: String, headers: Bool = false) -> [String] {
            let what = headers ? "a header name" : "a non-empty name"
            return logStrings(object, key, what: what, &diagnostics) { text in
                !text.isEmpty && (!headers || HTTPToken.isToken(text))
            } ?? []
        }
        let redaction = LogConfigRedaction(
            headers: names("headers", headers: true), headersKeep: names("headers_keep", headers: true),
            headerSubstrings: names("header_substrings"), headerSubstringsKeep: names("header_substrings_keep"),
            query: names("query"), queryKeep: names("query_keep"),
            bodyFields: names("body_fields"), bodyFieldsKeep: names("body_fields_keep"))
        let pairs = [
            ("headers", redaction.headers, "headers_keep", redaction.headersKeep),
            ("header_substrings", redaction.headerSubstrings, "header_substrings_keep", redaction.headerSubstringsKeep),
            ("query", redaction.query, "query_keep", redaction.queryKeep),
            ("body_fields", redaction.bodyFields, "body_fields_keep", redaction.bodyFieldsKeep),
        ]
        for (addKey, added, keepKey, kept) in pairs {
            let addedNames = Set(added.map { $0.lowercased() })
            for (index, name) in kept.enumerated() where addedNames.contains(name.lowercased()) {
                diagnostics.add(Diagnostics.join(object.path(keepKey), index),
                                "\(JSONValue.quoted(name)) is also in \(object.path(addKey)); a name is either redacted or kept")
            }
        }
        return redaction
    }

    /// An optional array of strings, keeping those `valid` accepts; nil when absent or not
    /// an array. Every bad element is reported at its own index.
    private static func logStrings(
        _ object: FieldReader, _ key: String, what: String, _ diagnostics: inout Diagnostics,
        valid: (String) -> Bool
    ) -> [String]? {
        guard let value = object[key] else { return nil }
        guard case .array(let items) = value else {
            diagnostics.add(object.path(key), "expected an array of strings (\(what)), got \(value.rendered)")
            return nil
        }
        var strings: [String] = []
        for (index, item) in items.enumerated() {
            if case .string(let text) = item, valid(text) {
                strings.append(text)
            } else {
                diagnostics.add(Diagnostics.join(object.path(key), index), "expected \(what), got \(item.rendered)")
            }
        }
        return strings
    }
}
