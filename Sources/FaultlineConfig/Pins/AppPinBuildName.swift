/// Which build of the app `pins.build` stands for: Android applies `debug-overrides` to
/// debuggable builds only.
public enum AppPinBuildName: String, Sendable, Equatable, CaseIterable {
    /// A release build, as shipped: `debug-overrides` is ignored.
    case release
    /// A debuggable build: `debug-overrides` trust anchors apply.
    case debuggable
}
