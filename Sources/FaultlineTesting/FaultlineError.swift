import Foundation

/// What went wrong when starting, reaching or instructing Faultline. Each description says
/// what failed and carries what is needed to fix it (paths searched, the process output,
/// the proxy's own message and the field it blames).
public enum FaultlineError: Error, CustomStringConvertible, Sendable {
    /// No executable `faultline` was found; `searched` lists every path tried, in order.
    case binaryNotFound(searched: [String])
    /// The binary (or its demo origin) could not start, exited, or did not become ready;
    /// `output` is what it printed.
    case launchFailed(reason: String, output: String)
    /// The admin API could not be reached at `url`.
    case adminUnreachable(url: URL, reason: String)
    /// The proxy refused a request: its HTTP status, its message and, when one field is to
    /// blame, the field's path (e.g. `rule.faults[0].status.code`).
    case refused(status: Int, message: String, field: String?)
    /// The session was ended (by `end()`, or it expired or was deleted on the proxy).
    case sessionEnded(id: String)
    /// The admin API answered something this library does not understand.
    case unexpectedAnswer(status: Int, body: String)
    /// `waitForRequests` waited `waited` for `wanted` matching requests in session `session`
    /// and saw `inSession`; `outsideSessions` matching requests arrived outside every session.
    case requestsShort(session: String, wanted: Int, inSession: Int, outsideSessions: Int, waited: Duration)
    /// `waitForPhase` waited `waited` for scenario `scenario` to reach phase `phase`; it was
    /// `state`, in phase `current` (nil: none).
    case phaseNotReached(scenario: String, phase: Int, state: String, current: Int?, waited: Duration)
    /// The scenario file at `path` could not be read or is not a JSON object.
    case unreadableScenario(path: String, reason: String)

    /// A sentence or two saying what went wrong.
    public var description: String {
        switch self {
        case .binaryNotFound(let searched):
            let list = searched.isEmpty ? "nothing (PATH is empty)" : searched.joined(separator: ", ")
            return "faultline binary not found; searched: \(list). Set FAULTLINE_BIN or pass binary:."
        case .launchFailed(let reason, let output):
            let trimmed = output.trimmingCharacters(in: .whitespacesAndNewlines)
            return "faultline failed to launch: \(reason)" + (trimmed.isEmpty ? " (no output)" : "; output:\n\(trimmed)")
        case .adminUnreachable(let url, let reason):
            return "faultline admin API unreachable at \(url.absoluteString): \(reason)"
        case .refused(let status, let message, let field):
            let blamed = field.map { " (field \($0))" } ?? ""
            return "faultline refused the request with \(status): \(message)\(blamed)"
        case .sessionEnded(let id):
            return "faultline session \(id) has ended (ended, expired or deleted)"
        case .unexpectedAnswer(let status, let body):
            return "faultline admin API answered \(status) unexpectedly: \(body.prefix(500))"
        case .requestsShort(let session, let wanted, let inSession, let outside, let waited):
            let hint = outside > 0
                ? ": did you call session.configure(_:) or apply(to:) on the client's requests?"
                : ": did the client send them to faultline.proxyURL?"
            return "waited \(waited) for \(wanted) matching requests in session \(session): \(inSession) in the session, "
                + "\(outside) outside sessions\(hint)"
        case .phaseNotReached(let scenario, let phase, let state, let current, let waited):
            return "waited \(waited) for scenario \(scenario) to reach phase \(phase); it is \(state)"
                + (current.map { ", in phase \($0)" } ?? "")
        case .unreadableScenario(let path, let reason):
            return "cannot use the scenario file \(path): \(reason)"
        }
    }
}
