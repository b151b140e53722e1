/// A change of a scenario's phase, reported as a log record of its own, a line on the
/// console and a count in `/metrics`.
struct ScenarioTransition: Sendable {
    /// What happened.
    enum Change: Sendable {
        /// The scenario started at (or moved to) `phase`.
        case entered(index: Int, name: String?, cycle: Int)
        /// The scenario ran past its last phase (no loop).
        case finished
        /// Stopped through the admin API, a reload or the end of its session.
        case stopped
    }

    /// The scenario's name.
    let scenario: String
    /// The session whose scenario it is; nil for a global one.
    let session: String?
    /// How many phases the scenario has.
    let phaseCount: Int
    let change: Change

    /// One line for the console and the log record's message.
    var message: String {
        let owner = session.map { "session \($0) scenario" } ?? "scenario"
        switch change {
        case .entered(let index, let name, let cycle):
            let label = name.map { " \"\($0)\"" } ?? ""
            let round = cycle > 0 ? " (cycle \(cycle + 1))" : ""
            return "\(owner) \(scenario): phase \(index + 1)/\(phaseCount)\(label) began\(round)"
        case .finished:
            return "\(owner) \(scenario): finished (last phase ended)"
        case .stopped:
            return "\(owner) \(scenario): stopped"
        }
    }
}
