extension ConfigLoader {
    /// The `faults` of a route, with default names ("status", "status-2", …) filled in
    /// and explicit names checked unique within the route.
    static func readFaults(_ route: FieldReader, _ context: LoadContext, _ diagnostics: inout Diagnostics) -> [FaultSpec] {
        guard let value = route["faults"] else { return [] }
        let path = route.path("faults")
        guard case .array(let items) = value else {
            diagnostics.add(path, "expected an array of faults, got \(value.rendered)")
            return []
        }
        guard items.count <= RouteConfig.maxFaults else {
            diagnostics.add(path, "expected at most \(RouteConfig.maxFaults) faults per rule, got \(items.count)")
            return []
        }
        var parsed: [(name: String?, path: String, kind: FaultKind, when: FaultCondition, enabled: Bool)] = []
        for (index, item) in items.enumerated() {
            let faultPath = Diagnostics.join(path, index)
            if let fault = readFault(item, path: faultPath, context, &diagnostics) {
                parsed.append((fault.name, faultPath, fault.kind, fault.when, fault.enabled))
            }
        }
        var taken: [String: String] = [:]
        for fault in parsed {
            guard let name = fault.name else { continue }
            if let earlier = taken[name] {
                diagnostics.add(
                    Diagnostics.join(fault.path, "name"),
                    "duplicate fault name \(JSONValue.quoted(name)) (already used by \(earlier))")
            } else {
                taken[name] = fault.path
            }
        }
        return parsed.map { fault in
            var name = fault.name ?? fault.kind.keyword
            var suffix = 2
            while fault.name == nil, taken[name] != nil {
                name = "\(fault.kind.keyword)-\(suffix)"
                suffix += 1
            }
            if fault.name == nil { taken[name] = fault.path }
            return FaultSpec(name: name, kind: fault.kind, when: fault.when, enabled: fault.enabled)
        }
    }

    private static func readFault(
        _ value: JSONValue, path: String, _ context: LoadContext, _ diagnostics: inout Diagnostics
    ) -> (name: String?, kind: FaultKind, when: FaultCondition, enabled: Bool)? {
        guard case .object(let fields) = value else {
            diagnostics.add(path, "expected an object, got \(value.rendered)")
            return nil
        }
        let kinds = FaultKind.keywords.filter { fields[$0] != nil }
        let reportedKind = reportUnknownFaultKeys(fields, path: path, hasKind: !kinds.isEmpty, &diagnostics)
        let object = FieldReader(checked: fields, path: path)
        var name: String?
        if let text = object.string("name", expected: "a non-empty string", &diagnostics) {
            if text.isEmpty {
                diagnostics.add(object.path("name"), "expected a non-empty string, got \"\"")
            } else {
                name = text
            }
        }
        let enabled = object.bool("enabled", default: true, &diagnostics)
        guard let keyword = kinds.first else {
            if !reportedKind {
                diagnostics.add(path, "expected one fault kind (\(FaultKind.keywords.joined(separator: ", "))), got none")
            }
            return nil
        }
        guard kinds.count == 1 else {
            diagnostics.add(path, "expected exactly one fault kind, got \(kinds.joined(separator: ", "))")
            return nil
        }
        let kind = readFaultKind(keyword, object, context, &diagnostics)
        let when = readCondition(object, isStatus: keyword == "status", &diagnostics)
        guard let kind, let when else { return nil }
        return (name, kind, when, enabled)
    }

    /// Reports the keys a fault object does not know. Without a kind key, a key that
    /// looks like no meta key is taken for a misspelt kind. Returns whether it did so.
    private static func reportUnknownFaultKeys(
        _ fields: [String: JSONValue], path: String, hasKind: Bool, _ diagnostics: inout Diagnostics
    ) -> Bool {
        var reportedKind = false
        let known = FaultKind.keywords.joined(separator: ", ")
        for key in fields.keys.sorted() where !FaultConfigKeys.fault.contains(key) {
            if !hasKind, EditDistance.suggestion(for: key, among: FaultConfigKeys.meta) == nil {
                reportedKind = true
                if let suggestion = EditDistance.suggestion(for: key, among: FaultKind.keywords) {
                    diagnostics.add(
                        path, "unknown fault kind \(JSONValue.quoted(key)); did you mean \"\(suggestion)\"? (known: \(known))")
                } else {
                    diagnostics.add(path, "unknown fault kind \(JSONValue.quoted(key)) (known: \(known))")
                }
            } else if let suggestion = EditDistance.suggestion(for: key, among: FaultConfigKeys.fault) {
                diagnostics.add(Diagnostics.join(path, key), "unknown key; did you mean \"\(suggestion)\"?")
            } else {
                diagnostics.add(
                    Diagnostics.join(path, key), "unknown key (known: \(FaultConfigKeys.fault.joined(separator: ", ")))")
            }
        }
        return reportedKind
    }
}

extension FieldReader {
    /// Wraps an object whose keys the caller has already checked.
    init(checked fields: [String: JSONValue], path: String) {
        self.path = path
        self.fields = fields
    }
}
