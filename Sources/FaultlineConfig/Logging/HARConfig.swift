/// The top-level `har` section: the rolling in-memory capture of recent exchanges that
/// `GET /har` and `faultline har export` turn into a HAR 1.2 file (see docs/config.md, "har").
/// What it keeps is redacted with the `log` section's rules.
public struct HARConfig: Sendable, Equatable {
    /// Default `max_entries`.
    public static let defaultMaxEntries = 1000
    /// Default `max_bytes` (32 MiB).
    public static let defaultMaxBytes = 32 << 20
    /// Default `body_max_bytes` (64 KiB).
    public static let defaultBodyMaxBytes = 64 << 10

    /// Whether exchanges are captured.
    public let enabled: Bool
    /// Most exchanges kept; older ones are evicted.
    public let maxEntries: Int
    /// Most bytes (estimated) kept; older exchanges are evicted.
    public let maxBytes: Int
    /// Whether bodies of `log.body_types` are captured (capped, redacted).
    public let bodies: Bool
    /// Longest body kept per message.
    public let bodyMaxBytes: Int

    /// Creates the section; by default the last 1,000 exchanges (at most 32 MiB) are kept,
    /// text bodies included up to 64 KiB each.
    public init(
        enabled: Bool = true, maxEntries: Int = HARConfig.defaultMaxEntries, maxBytes: Int = HARConfig.defaultMaxBytes,
        bodies: Bool = true, bodyMaxBytes: Int = HARConfig.defaultBodyMaxBytes
    ) {
        self.enabled = enabled
        self.maxEntries = maxEntries
        self.maxBytes = maxBytes
        self.bodies = bodies
        self.bodyMaxBytes = bodyMaxBytes
    }
}
