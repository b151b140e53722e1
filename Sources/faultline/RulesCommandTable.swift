/// The readable forms of `faultline rules list` and `stats`: aligned columns.
enum RulesCommandTable {
    /// One line per rule: name, source, on/off, match, upstream, faults with fired/matched.
    static func rules(_ answer: AdminAnswer) -> [String] {
        let rules = answer.rules ?? []
        var rows = [["NAME", "SOURCE", "ENABLED", "MATCH", "UPSTREAM", "FAULTS (fired/matched)"]]
        for rule in rules {
            let faults = (rule.faults ?? []).map { fault -> String in
                let off = (fault.enabled ?? true) ? "" : " (off)"
                let name = fault.name ?? "?"
                let kind = fault.kind ?? "?"
                return "\(name == kind ? name : "\(name)[\(kind)]")\(off) \(fault.stats?.fired ?? 0)/\(fault.stats?.matched ?? 0)"
            }
            rows.append([
                rule.name ?? "?",
                rule.source ?? "?",
                (rule.enabled ?? true) ? "yes" : "no",
                rule.match.map(Self.match) ?? "*",
                rule.upstream ?? "?",
                faults.isEmpty ? "-" : faults.joined(separator: ", "),
            ])
        }
        var lines = align(rows)
        if rules.isEmpty { lines.append("(no rules)") }
        for note in answer.stale ?? [] {
            lines.append("stale: \(note)")
        }
        return lines
    }

    /// One line per fault: rule, fault, kind, on/off, matched, fired, active; then the seed
    /// and the HTTP/2 counters.
    static func stats(_ answer: AdminAnswer) -> [String] {
        var rows = [["RULE", "FAULT", "KIND", "ENABLED", "MATCHED", "FIRED", "ACTIVE"]]
        for rule in answer.rules ?? [] {
            for fault in rule.faults ?? [] {
                rows.append([
                    rule.name ?? "?", fault.name ?? "?", fault.kind ?? "?",
                    (fault.enabled ?? true) ? "yes" : "no",
                    String(fault.matched ?? 0), String(fault.fired ?? 0), String(fault.active ?? 0),
                ])
            }
        }
        var lines = align(rows)
        if rows.count == 1 { lines.append("(no faults)") }
        if let seed = answer.seed { lines.append("seed: \(seed)") }
        if let http2 = answer.http2 {
            lines.append("http2: \(http2.connectionsAccepted ?? 0) connections, \(http2.streamsOpened ?? 0) streams, "
                + "\(http2.streamsResetByFaultline ?? 0) reset by faultline, \(http2.streamsResetByClient ?? 0) reset by client, "
                + "\(http2.goawaysSent ?? 0) GOAWAY sent")
        }
        return lines
    }

    /// `GET /users* host example.com +headers,query`-style summary of a match; `*` for everything.
    static func match(_ match: AdminAnswer.Match) -> String {
        var parts: [String] = []
        if let methods = match.methods { parts.append(methods.joined(separator: ",")) }
        if let path = match.path { parts.append(path) }
        if let path = match.pathPrefix { parts.append(path + "*") }
        if let path = match.pathGlob { parts.append("glob:" + path) }
        if let host = match.host { parts.append("host " + host) }
        if !match.conditions.isEmpty { parts.append("+" + match.conditions.joined(separator: ",")) }
        return parts.isEmpty ? "*" : parts.joined(separator: " ")
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
