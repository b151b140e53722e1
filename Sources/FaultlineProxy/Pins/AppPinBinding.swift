import Foundation
import FaultlineAppPins
import FaultlineConfig

/// An app configuration read for one upstream: the file and domain the config names, the
/// platform configuration read from it, and the build variant its rules assume.
struct AppPinBinding: Sendable {
    let reference: AppPinReference
    let configuration: AppPinConfiguration
    let build: AppBuildVariant

    /// What the app would do connecting to the domain over `chain` at `date`.
    func evaluate(_ chain: AppChain, at date: Date) -> AppPinVerdict {
        AppPinEvaluator.evaluate(configuration, host: reference.domain, chain: chain, at: date, build: build)
    }

    /// The entries whose host pattern covers the domain (what reports list as known pins).
    var coveringEntries: [AppPinDomain] {
        configuration.domains.filter { $0.pattern.matches(reference.domain) }
    }

    /// The verdict with the rule that decided it, as records and `GET /pins` show it:
    /// `FAIL: pins only leaf keys; … (ATS NSAppTransportSecurity.NSPinnedDomains["api.example.com"] in apps/ios/Info.plist)`.
    func line(_ verdict: AppPinVerdict) -> String {
        let entry = verdict.entry.map { " \($0)" } ?? ""
        return "\(verdict.description) (\(configuration.platform.displayName)\(entry) in \(reference.written))"
    }

    /// The entry a verdict applied, when it names exactly one.
    func entry(of verdict: AppPinVerdict) -> AppPinDomain? {
        guard let keyPath = verdict.entry else { return nil }
        return configuration.domains.first { $0.keyPath == keyPath }
    }

    /// Whether a NOT PINNED verdict comes from the entry's expiration having passed (a
    /// state of time, unlike an entry that pins nothing).
    func isExpired(_ verdict: AppPinVerdict, at date: Date) -> Bool {
        guard verdict.outcome == .notPinned, let expiration = entry(of: verdict)?.expiration else { return false }
        return expiration <= date
    }
}
