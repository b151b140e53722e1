import Foundation

/// One HAR entry as the scenario builder sees it: when it started (ms after the first kept
/// entry), how long it took, what it asked and what became of it.
struct HARScenarioEntry {
    /// What the entry's outcome is reproduced as.
    enum Outcome: Equatable {
        /// Answered normally and quickly: not reproduced, but it tells requests apart.
        case passed
        case status(code: Int, slowMs: Int?)
        case slow(ms: Int)
        case reset
        case hang(ms: Int)

        var isFault: Bool { self != .passed }
    }

    let index: Int
    var offsetMs: Double
    let durationMs: Double
    let method: String
    let path: String
    /// `name=value` pairs of the query as sent.
    let query: [(name: String, value: String)]
    /// Top-level scalar members of a JSON request body: pointer → compared text.
    let jsonMembers: [String: String]
    let outcome: Outcome
    let response: HARInput.Response?

    var endMs: Double { offsetMs + durationMs }

    /// The request's route for rules: method and path.
    var route: String { method + " " + path }

    /// Method, path, query and JSON members: requests a rule cannot tell apart share it.
    var identity: String {
        route + "?" + query.map { "\($0.name)=\($0.value)" }.joined(separator: "&") + " "
            + jsonMembers.keys.sorted().map { "\($0)=\(jsonMembers[$0] ?? "")" }.joined(separator: ",")
    }
}
