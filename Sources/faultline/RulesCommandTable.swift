/// The readable forms of `faultline rules list` and `stats`: aligned columns.
enum RulesCommandTable {
    /// One line per rule: name, source, on/off, match, upstream, faults with fired/matched.
    static func rules(_ object: [String: Any]) -> [String] {
        let rules = object["rules"] as? [[String: Any]] ?? []
        var rows = [["NAME", "SOURCE", "ENABLED", "MATCH", "UPSTREAM", "FAULTS (fired/matched)"]]
        for rule in rules {
            let faults = (rule["faults"] as? [[String: Any]] ?? []).map { fault -> String in
                let stats = fault["stats"] as? [String: Any] ?? [:]
                let off = (fault["enabled"] as? Bool ?? true) ? "" : " (off)"
                let name = fault["name"] as? String ?? "?"
                let kind = fault["kind"] as? String ?? "?"
                return "\(name == kind ? name : "\(name)[\(kind)]")\(off) \(int(stats["fired"]))/\(int(stats["matched"]))"
            }
            rows.append([
                rule["name"] as? String ?? "?",
                rule["source"] as? String ?? "?",
                (rule["enabled"] as? Bool ?? true) ? "yes" : "no",
                match(rule["match"] as? [String: Any] ?? [:]),
                rule["upstream"] as? String ?? "?",
                faults.isEmpty ? "-" : faults.joined(separator: ", "),
            ])
        }
        var lines = align(rows)
        if rules.isEmpty { lines.append("(no rules)") }
        for note in object["stale"] as? [String] ?? [] {
            lines.append("stale: \(note)")
        }
        return lines
    }

    /// One line per fault: rule, fault, kind, on/off, matched, fired, active.
    static func stats(_ object: [String: Any]) -> [String] {
        var rows = [["RULE", "FAULT", "KIND", "ENABLED", "MATCHED", "FIRED", "ACTIVE"]]
        for rule in object["rules"] as? [[String: Any]] ?? [] {
            for fault in rule["faults"] as? [[String: Any]] ?? [] {
                rows.append([
                    rule["name"] as? String ?? "?", fault["name"] as? String ?? "?", fault["kind"] as? String ?? "?",
                    (fault["enabled"] as? Bool ?? true) ? "yes" : "no",
                    String(int(fault["matched"])), String(int(fault["fired"])), String(int(fault["active"])),
                ])
            }
        }
        var lines = align(rows)
        if rows.count == 1 { lines.append("(no faults)") }
        if let seed = object["seed"] as? String { lines.append("seed: \(seed)") }
        return lines
    }

    /// `GET /users* host example.com`-style summary of a match object; `*` for everything.
    static func match(_ match: [String: Any]) -> String {
        var parts: [String] = []
        if let methods = match["methods"] as? [String] { parts.append(methods.joined(separator: ",")) }
        if let path = match["path"] as? String { parts.append(path) }
        if let path = match["path_prefix"] as? String { parts.append(path + "*") }
        if let path = match["path_glob"] as? String { parts.append("glob:" + path) }
        if let host = match["host"] as? String { parts.append("host " + host) }
        return parts.isEmpty ? "*" : parts.joined(separator: " ")
    }

    private static func int(_ value: Any?) -> Int {
        value as? Int ?? 0
    }

    private static func align(_ rows: [[String]]) -> [String] {
        let widths = (0..<(rows.first?.count ?? 0)).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }
    }
}
