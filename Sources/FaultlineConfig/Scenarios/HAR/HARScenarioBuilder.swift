import Foundation

/// Turns a HAR into a scenario that reproduces its failure pattern against the real upstream
/// (docs/scenarios.md, "From a HAR file"): each failing or slow entry becomes a rule on its
/// method and path (with query and JSON-body conditions where requests to that path had other
/// outcomes), entries close in time share a phase, the time between them becomes empty phases,
/// and the scenario ends in an open phase with no rules. Pure: bytes in, JSON text out.
public enum HARScenarioBuilder {
    /// Entries whose gap (end of one to start of the next) is at most this share a phase.
    static let groupGapMs = 1000.0
    /// The shortest phase with rules (ms, before compression): a single quick failure still
    /// leaves a replaying client time to meet it.
    static let minimumPhaseMs = 1000.0

    /// The scenario document and the notes (entries skipped, limits reached) for the operator.
    public struct Result: Sendable {
        /// The scenario as pretty-printed JSON (what `ScenarioConfig.load(json:)` reads).
        public let json: [UInt8]
        public let notes: [String]
        public let phaseCount: Int
        public let ruleCount: Int
    }

    /// The scenario for `input`. Throws when nothing in the HAR needs reproducing or an option
    /// is out of range.
    public static func build(_ input: HARInput, options: HARScenarioOptions) throws(HARReadError) -> Result {
        guard ScenarioConfig.isValidName(options.name) else {
            throw HARReadError(path: "", message: "the scenario name \(JSONValue.quoted(options.name)) is not 1...100 letters, digits, '.', '_' or '-'")
        }
        if let factor = options.compress, !(factor >= 1 && factor <= 1000) {
            throw HARReadError(path: "", message: "--compress must be 1...1000, got \(factor)")
        }
        var notes: [String] = []
        let entries = timeline(input, options: options, notes: &notes)
        let windows = HARScenarioBuilder.windows(entries.filter { $0.outcome.isFault })
        guard !windows.isEmpty else {
            throw HARReadError(path: "log.entries", message: "no failing\(options.onlyFailures ? "" : " or slow") entry to reproduce among \(entries.count) kept")
        }
        var phases: [[String: Any]] = []
        var ruleCount = 0
        var clock = entries.first?.offsetMs ?? 0
        for (position, window) in windows.enumerated() {
            guard phases.count + 2 < ScenarioConfig.maxPhases else {
                notes.append("only the first \(position) incidents are kept: a scenario holds at most \(ScenarioConfig.maxPhases) phases")
                break
            }
            let quiet = window.start - clock
            if quiet >= 1 { phases.append(["name": "quiet", "for_ms": milliseconds(quiet, options: options, isGap: true)]) }
            let next = position + 1 < windows.count ? windows[position + 1].start : nil
            var length = max(window.end - window.start, minimumPhaseMs)
            if let next, next - window.start < length + groupGapMs { length = max(1, next - window.start) }
            let rules = HARScenarioBuilder.rules(window, all: entries, options: options, notes: &notes)
            ruleCount += rules.count
            phases.append(["name": window.name, "for_ms": milliseconds(length, options: options, isGap: false), "rules": rules])
            clock = window.start + length
        }
        phases.append(["name": "after", "rules": [[String: Any]]()])
        let document: [String: Any] = ["name": options.name, "loop": false, "phases": phases]
        let data = (try? JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return Result(json: Array(data) + [UInt8(ascii: "\n")], notes: notes, phaseCount: phases.count, ruleCount: ruleCount)
    }

    /// The kept entries in start order, offsets in ms after the first one.
    private static func timeline(_ input: HARInput, options: HARScenarioOptions, notes: inout [String]) -> [HARScenarioEntry] {
        var entries: [HARScenarioEntry] = []
        var first: Date?
        var undated = 0
        for (index, raw) in input.log.entries.enumerated() {
            guard var entry = HARScenarioEntry.make(raw, index: index, options: options, notes: &notes) else { continue }
            if let date = raw.startedDateTime.flatMap(parseDate) {
                let origin = first ?? date
                first = origin
                entry.offsetMs = date.timeIntervalSince(origin) * 1000
            } else {
                undated += 1
                entry.offsetMs = entries.last?.offsetMs ?? 0
            }
            entries.append(entry)
        }
        if undated > 0 { notes.append("\(undated) entries without a readable startedDateTime were placed after the entry before them") }
        // Stable: entries that started together keep the file's order.
        return entries.enumerated().sorted { ($0.element.offsetMs, $0.offset) < ($1.element.offsetMs, $1.offset) }.map(\.element)
    }

    private static func parseDate(_ text: String) -> Date? {
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = fractional.date(from: text) { return date }
        return ISO8601DateFormatter().date(from: text)
    }

    /// A phase duration for the file: compressed, gaps capped, within 1...86400000.
    private static func milliseconds(_ value: Double, options: HARScenarioOptions, isGap: Bool) -> Int {
        var result = value / (options.compress ?? 1)
        if isGap, let cap = options.maxGapMs { result = min(result, Double(cap)) }
        return Int(min(max(result.rounded(), 1), Double(ScenarioConfig.durationRange.upperBound)))
    }
}
