/// The `log.destination` setting.
public enum LogConfigDestination: String, Sendable, Equatable, CaseIterable {
    /// Standard output.
    case stdout
    /// Standard error.
    case stderr
    /// The file at `log.path`.
    case file
}
