public import Foundation

/// Checks a host and a chain against an app configuration with that platform's rules.
/// Pure: the date and the build variant come in as arguments. The chain is assumed to be
/// trusted by the platform (the check is on pins, which only narrow a trusted chain).
public enum AppPinEvaluator {
    /// What `configuration`'s app would do connecting to `host` over `chain` at `date`;
    /// `build` matters only for Android (`debug-overrides`).
    public static func evaluate(_ configuration: AppPinConfiguration, host: String, chain: AppChain, at date: Date,
                                build: AppBuildVariant = .release) -> AppPinVerdict {
        let name = HostPattern.normalize(host)
        switch configuration.platform {
        case .ats: return ATSRules.evaluate(configuration, host: name, chain: chain)
        case .android: return AndroidRules.evaluate(configuration, host: name, chain: chain, at: date, build: build)
        case .trustKit: return TrustKitRules.evaluate(configuration, host: name, chain: chain, at: date)
        case .okHttp: return OkHttpRules.evaluate(configuration, host: name, chain: chain)
        }
    }
}
