/// The `log.format` setting.
public enum LogConfigFormat: String, Sendable, Equatable, CaseIterable {
    /// Readable text on a terminal, JSON Lines otherwise.
    case auto
    /// JSON Lines.
    case json
    /// The readable one-line text form (coloured only on a terminal).
    case text
}
