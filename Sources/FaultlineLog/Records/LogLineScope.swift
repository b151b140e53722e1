/// What a log line shows of a record that was built for a wider consumer (the HAR capture
/// keeps headers and bodies the line leaves out): the line is then encoded from the shared
/// record, leaving those parts out, instead of from a trimmed copy of it.
public struct LogLineScope: Sendable, Equatable {
    /// Whether the headers (and the count of omitted ones) are shown.
    public var headers: Bool
    /// Whether the bodies are shown.
    public var bodies: Bool

    /// A scope showing headers and/or bodies.
    public init(headers: Bool, bodies: Bool) {
        self.headers = headers
        self.bodies = bodies
    }

    /// Everything the record holds.
    public static let all = LogLineScope(headers: true, bodies: true)

    /// Whether a `faultline.redacted` entry names a part this scope shows.
    func shows(redaction entry: String) -> Bool {
        if !headers && (entry.contains(".header.") || entry.contains(".cookie.")) { return false }
        return bodies || !entry.contains(".body.")
    }
}

extension LogRecord {
    /// `redacted` without the entries of parts `scope` leaves out.
    func redacted(in scope: LogLineScope) -> [String] {
        scope == .all || redacted.isEmpty ? redacted : redacted.filter(scope.shows(redaction:))
    }
}
