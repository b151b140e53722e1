import Foundation
import FaultlineConfig

extension ConfigSnapshot {
    /// A warning met while reading an upstream's app pin file.
    public struct AppPinWarning: Sendable {
        /// The upstream whose `pins.app` named the file.
        public let upstream: String
        /// The field path and what deserves attention.
        public let warning: ConfigWarning
    }

    /// The app pin files of every https upstream, read as of `now`: one rule per upstream
    /// whose pins name an app file, and every problem with its field path.
    static func appPinRules(_ config: ProxyConfig, at now: Date = Date())
        -> (rules: [String: AppPinRule], warnings: [AppPinWarning], errors: [ConfigError]) {
        var rules: [String: AppPinRule] = [:]
        var warnings: [AppPinWarning] = []
        var errors: [ConfigError] = []
        for upstream in config.upstreams {
            guard let appPins = upstream.tls?.appPins else { continue }
            let resolved = AppPinRule.resolve(appPins, at: now)
            rules[upstream.name] = resolved.rule
            warnings += resolved.warnings.map { AppPinWarning(upstream: upstream.name, warning: $0) }
            errors += resolved.errors
        }
        return (rules, warnings, errors)
    }
}
