/// An app's pin configuration read from its own file, in platform-neutral form: which
/// platform's rules apply, the per-domain entries, configuration-wide overrides, and
/// warnings about choices that are legal but risky.
public struct AppPinConfiguration: Sendable, Hashable {
    /// Whose matching rules apply.
    public let platform: AppPlatform
    /// The file it was read from, as given.
    public let file: String
    /// The entries in file order.
    public let domains: [AppPinDomain]
    /// Android `base-config` and `debug-overrides` trust anchors.
    public let overrides: AppPinOverrides
    /// One line each, starting with the key path.
    public let warnings: [String]

    /// Creates a configuration.
    public init(platform: AppPlatform, file: String, domains: [AppPinDomain], overrides: AppPinOverrides = .none,
                warnings: [String] = []) {
        self.platform = platform
        self.file = file
        self.domains = domains
        self.overrides = overrides
        self.warnings = warnings
    }
}
