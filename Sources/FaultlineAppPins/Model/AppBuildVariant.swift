/// Whether the app build under test is debuggable: Android applies `debug-overrides` only
/// to debuggable builds (`android:debuggable="true"`, the usual debug variant).
public enum AppBuildVariant: String, Sendable, Hashable {
    /// A release build: `debug-overrides` is ignored.
    case release
    /// A debuggable build: `debug-overrides` trust anchors are added to every configuration.
    case debuggable
}
