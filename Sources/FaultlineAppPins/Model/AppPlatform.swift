/// The client stack whose pin configuration was read; it decides which matching rules apply.
public enum AppPlatform: String, Sendable, Hashable, CaseIterable {
    /// App Transport Security: `NSAppTransportSecurity.NSPinnedDomains` in an Info.plist.
    case ats
    /// Android's network security configuration (`network_security_config.xml`).
    case android
    /// TrustKit (`TSKConfiguration` in an Info.plist, or the same keys as JSON).
    case trustKit = "trustkit"
    /// OkHttp's `CertificatePinner` (Kotlin or Java source, or a plain list).
    case okHttp = "okhttp"

    /// The name used in messages.
    public var displayName: String {
        switch self {
        case .ats: "ATS"
        case .android: "Android"
        case .trustKit: "TrustKit"
        case .okHttp: "OkHttp"
        }
    }
}
