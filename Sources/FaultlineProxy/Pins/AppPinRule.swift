import Foundation
import FaultlineConfig
import FaultlineTLS

/// An upstream's pins from app files, read and checked: the app enforced, what a FAIL does,
/// and the app checked in shadow. Compiled once per config snapshot.
struct AppPinRule: Sendable {
    let mode: PinMode
    let live: AppPinBinding
    let candidate: AppPinBinding?

    /// Reads the files `config` names; nil with the errors when one cannot be used.
    static func resolve(_ config: AppPinsConfig, at now: Date) -> (rule: AppPinRule?, warnings: [ConfigWarning], errors: [ConfigError]) {
        var warnings: [ConfigWarning] = []
        var errors: [ConfigError] = []
        var live: AppPinBinding?
        var candidate: AppPinBinding?
        do {
            let (binding, found) = try AppPinResolver.resolve(config.live, at: now)
            live = binding
            warnings += found
        } catch {
            errors.append(error)
        }
        if let reference = config.candidate {
            do {
                let (binding, found) = try AppPinResolver.resolve(reference, at: now)
                candidate = binding
                warnings += found
            } catch {
                errors.append(error)
            }
        }
        guard let live, errors.isEmpty else { return (nil, warnings, errors) }
        return (AppPinRule(mode: config.mode, live: live, candidate: candidate), warnings, errors)
    }
}
