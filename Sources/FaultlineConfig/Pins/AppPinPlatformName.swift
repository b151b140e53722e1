/// The app platform whose reader and matching rules a `pins.platform` names. The config
/// layer cannot see the readers (they sit beside it), so it keeps the name; the proxy maps
/// it when it compiles the snapshot.
public enum AppPinPlatformName: String, Sendable, Equatable, CaseIterable {
    /// Apple App Transport Security (`NSPinnedDomains` in an Info.plist).
    case ats
    /// Android's `network_security_config.xml`.
    case android
    /// TrustKit (`TSKConfiguration` in an Info.plist, or the same keys as JSON).
    case trustkit
    /// OkHttp `CertificatePinner` entries.
    case okhttp
}
