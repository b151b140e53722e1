/// Failing or slow entries close in time: one phase of the scenario.
struct HARScenarioWindow {
    var entries: [HARScenarioEntry]
    var start: Double { entries.first?.offsetMs ?? 0 }
    var end: Double { entries.map(\.endMs).max() ?? start }

    /// `incident-1 503 GET /pay`-style: what the phase mostly holds.
    var name: String {
        guard let first = entries.first else { return "incident" }
        let more = entries.count > 1 ? " (+\(entries.count - 1))" : ""
        return "\(first.outcome.label) \(HARScenarioWindow.clip(first.route))\(more)"
    }

    /// `text` cut to 120 bytes at a character boundary, `…` marking the cut: names stay
    /// readable and within the scenario format's bounds (phase names at most 200 bytes).
    static func clip(_ text: String, bytes limit: Int = 120) -> String {
        guard text.utf8.count > limit else { return text }
        var cut = ""
        var count = 0
        for character in text {
            count += character.utf8.count
            if count > limit { break }
            cut.append(character)
        }
        return cut + "…"
    }
}

extension HARScenarioEntry.Outcome {
    /// `503`, `reset`, `hang`, `slow`: a rule's outcome in names.
    var label: String {
        switch self {
        case .passed: "passed"
        case .status(let code, _): "\(code)"
        case .slow: "slow"
        case .reset: "reset"
        case .hang: "hang"
        }
    }
}

extension HARScenarioBuilder {
    /// Fault entries grouped into windows: a gap over `groupGapMs` starts a new one, and so
    /// does a request whose outcome differs from an earlier one of the same route in the
    /// window (the phase after it reproduces the new outcome).
    static func windows(_ faults: [HARScenarioEntry]) -> [HARScenarioWindow] {
        var windows: [HARScenarioWindow] = []
        var current: [HARScenarioEntry] = []
        var outcomes: [String: HARScenarioEntry.Outcome] = [:]
        var reach = -Double.infinity
        for entry in faults {
            let changed = outcomes[entry.identity].map { !$0.sameKind(entry.outcome) } ?? false
            if !current.isEmpty && (entry.offsetMs - reach > groupGapMs || changed) {
                windows.append(HARScenarioWindow(entries: current))
                current = []
                outcomes = [:]
            }
            current.append(entry)
            outcomes[entry.identity] = outcomes[entry.identity] ?? entry.outcome
            reach = max(reach, entry.endMs)
        }
        if !current.isEmpty { windows.append(HARScenarioWindow(entries: current)) }
        return windows
    }
}

extension HARScenarioEntry.Outcome {
    /// The same fault kind (a 503 and a 503 slower by a few ms are one outcome).
    func sameKind(_ other: Self) -> Bool { label == other.label }
}
