/// Configuration-wide trust settings outside any domain entry (Android only): the
/// `base-config` trust anchors and the `debug-overrides` anchors, which apply to
/// debuggable builds only.
public struct AppPinOverrides: Sendable, Hashable {
    /// `base-config` trust anchors, nil when the file sets none (the system store).
    public let baseTrustAnchors: [AppTrustAnchor]?
    /// `debug-overrides` trust anchors (`overridePins` defaults to true there), nil when
    /// the file has no `debug-overrides`.
    public let debugTrustAnchors: [AppTrustAnchor]?

    /// Creates the overrides.
    public init(baseTrustAnchors: [AppTrustAnchor]? = nil, debugTrustAnchors: [AppTrustAnchor]? = nil) {
        self.baseTrustAnchors = baseTrustAnchors
        self.debugTrustAnchors = debugTrustAnchors
    }

    /// No base anchors, no debug overrides.
    public static let none = AppPinOverrides()
}
