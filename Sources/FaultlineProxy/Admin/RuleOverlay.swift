import FaultlineRules

/// Rule changes made through the admin API, kept apart from the file's configuration so that
/// a reload of the file keeps them.
struct RuleOverlay: Sendable {
    /// The file's configuration with the runtime changes applied.
    func apply(to config: ProxyConfig) throws(ConfigErrors) -> ProxyConfig {
        config
    }
}
