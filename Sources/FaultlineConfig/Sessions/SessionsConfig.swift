/// The top-level `sessions` section: limits and defaults of the per-test sessions created
/// through the admin API (`POST /sessions`; see docs/sessions.md).
public struct SessionsConfig: Sendable, Equatable {
    /// Default `max`.
    public static let defaultMax = 1000
    /// Default `journal_capacity`.
    public static let defaultJournalCapacity = 1000
    /// Default `default_ttl_s` (ten minutes).
    public static let defaultTTLSeconds = 600
    /// The accepted `ttl_s` of a session, and of `default_ttl_s`: one second to one day.
    public static let ttlRange = 1...86_400

    /// Most live sessions at once; creating one more is refused.
    public let max: Int
    /// Most journal entries each session keeps; older ones are dropped.
    public let journalCapacity: Int
    /// Idle time-to-live of a session created without `ttl_s`.
    public let defaultTTLSeconds: Int

    /// Creates the section; by default 1,000 sessions, 1,000 journal entries each, 10 minutes idle.
    public init(max: Int = SessionsConfig.defaultMax, journalCapacity: Int = SessionsConfig.defaultJournalCapacity,
                defaultTTLSeconds: Int = SessionsConfig.defaultTTLSeconds) {
        self.max = max
        self.journalCapacity = journalCapacity
        self.defaultTTLSeconds = defaultTTLSeconds
    }
}
