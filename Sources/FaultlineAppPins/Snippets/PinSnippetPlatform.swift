/// The platforms `pins compute --emit` writes a configuration block for.
public enum PinSnippetPlatform: String, CaseIterable, Sendable {
    /// App Transport Security `NSPinnedDomains` in an Info.plist.
    case ios
    /// Android's `network_security_config.xml`.
    case android
    /// OkHttp's `CertificatePinner` (Kotlin).
    case okhttp
    /// TrustKit's `TSKConfiguration` in an Info.plist.
    case trustkit

    /// Whether the platform has a pin expiration date (Android `expiration`, TrustKit
    /// `TSKExpirationDate`); ATS and OkHttp pin until the app is updated.
    public var hasExpiration: Bool {
        self == .android || self == .trustkit
    }

    /// The name used in messages.
    public var displayName: String {
        switch self {
        case .ios: "ATS"
        case .android: "Android"
        case .okhttp: "OkHttp"
        case .trustkit: "TrustKit"
        }
    }
}
