import Foundation

extension PinsAppMatrix {
    /// The aligned table (one row per app and host, one column per chain), the chains, one
    /// line per FAIL with its reason, notes, and the result.
    var lines: [String] {
        var rows = [["app", "platform", "host"] + chains.map(\.label)]
        for (index, subject) in subjects.enumerated() {
            for host in hosts {
                rows.append([subject.label, subject.platform, host] + chains.indices.map { chain in
                    cells.first { $0.subject == index && $0.host == host && $0.chain == chain }?.verdict.outcome.label ?? "-"
                })
            }
        }
        var lines = ["evaluated at \(atText), \(build.rawValue) build", ""]
        lines += Self.aligned(rows)
        lines += ["", "chains (verified path, leaf first):"]
        for chain in chains {
            lines.append("  \(chain.label): \(chain.source), \(chain.trust)")
            lines += Self.aligned(chain.chain.verified.map { [$0.position.rawValue, $0.pin.description, $0.subject] }).map { "    " + $0 }
        }
        let failures = self.failures
        if !failures.isEmpty {
            lines += ["", "failures:"] + failures.map { "  \(place($0)): \(reason($0))" }
        }
        let notes = self.notes
        if !notes.isEmpty {
            lines += ["", "notes (not failures):"] + notes.map { "  \(place($0)): \($0.verdict.outcome.label): \($0.verdict.reason)" }
        }
        lines.append("")
        lines.append(resultLine)
        return lines
    }

    /// `result: FAIL: 2 of 9 checks would be refused (ios-4.1, android-4.2)` or `result: PASS: …`.
    var resultLine: String {
        let reportOnly = cells.filter { $0.verdict.outcome == .reportOnlyFailure }.count
        let reportNote = reportOnly == 0 ? "" : "; \(reportOnly) report-only failure\(reportOnly == 1 ? "" : "s"), not counted as failing"
        let failures = self.failures
        guard !failures.isEmpty else {
            return "result: PASS: no app would refuse any chain (\(cells.count) check\(cells.count == 1 ? "" : "s")\(reportNote))"
        }
        var apps: [String] = []
        for cell in failures where !apps.contains(subjects[cell.subject].label) { apps.append(subjects[cell.subject].label) }
        return "result: FAIL: \(failures.count) of \(cells.count) checks would be refused (\(apps.joined(separator: ", "))\(reportNote))"
    }

    /// Columns padded to their widest cell, two spaces apart, no trailing spaces.
    static func aligned(_ rows: [[String]]) -> [String] {
        let columns = rows.map(\.count).max() ?? 0
        let widths = (0..<columns).map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
        return rows.map { row in
            var line = ""
            for (column, cell) in row.enumerated() {
                line += column == row.count - 1 ? cell : cell.padding(toLength: widths[column] + 2, withPad: " ", startingAt: 0)
            }
            return line
        }
    }
}
