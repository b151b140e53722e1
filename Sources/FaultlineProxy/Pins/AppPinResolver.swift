import Foundation
import FaultlineAppPins
import FaultlineConfig

/// Reads the app file an upstream's `pins.app` names when a snapshot is compiled (start,
/// reload, `check-config`), and refuses what the proxy could not enforce faithfully: a
/// file that cannot be read or parsed, one holding several platforms' configurations
/// without `platform`, and a domain that no entry pins.
enum AppPinResolver {
    /// The binding for `reference`, with the warnings worth printing at load.
    static func resolve(_ reference: AppPinReference, at now: Date) throws(ConfigError) -> (AppPinBinding, [ConfigWarning]) {
        let path = reference.path + ".app"
        let written = reference.written
        let configurations: [AppPinConfiguration]
        do {
            configurations = try AppPinReader.read(path: reference.file, platform: reference.platform.map(Self.platform))
        } catch {
            throw ConfigError(path: path, message: describe(error, written: written))
        }
        guard configurations.count == 1, let configuration = configurations.first else {
            let found = configurations.map(\.platform.displayName).joined(separator: " and ")
            let names = configurations.map { "\"\($0.platform.rawValue)\"" }.joined(separator: " or ")
            throw ConfigError(path: path, message: "\(written): holds \(found) pin configurations; set platform to \(names)")
        }
        if reference.build == .debuggable && configuration.platform != .android {
            throw ConfigError(path: reference.path + ".build",
                              message: "applies to Android configurations only; \(written) is read with \(configuration.platform.displayName) rules")
        }
        let binding = AppPinBinding(reference: reference, configuration: configuration,
                                    build: reference.build == .debuggable ? .debuggable : .release)
        var warnings = configuration.warnings.map { ConfigWarning(path: path, message: "\(written): \($0)") }
        // An empty chain shows whether any entry pins the domain at all.
        let nothing: [AppChainCertificate] = []
        let probe = binding.evaluate(AppChain(served: nothing, verified: nothing), at: now)
        guard probe.outcome == .notPinned else { return (binding, warnings) }
        if binding.isExpired(probe, at: now) {
            warnings.append(ConfigWarning(path: path, message: "\(written): \(probe.reason); the proxy forwards to "
                + "\(reference.domain) without a pin check, as the app connects without one (NOT PINNED)"))
            return (binding, warnings)
        }
        guard let entry = probe.entry else {
            throw ConfigError(path: path, message: "\(written): \(probe.reason)\(entries(configuration))")
        }
        let line = binding.entry(of: probe)?.line.map { " (line \($0))" } ?? ""
        throw ConfigError(path: path, message: "\(written): \(entry): \(probe.reason)\(line): the app pins nothing "
            + "for \(reference.domain), so there is nothing to enforce")
    }

    /// The reader's error with the file as written in the config: `file: key path: problem (line N)`.
    static func describe(_ error: AppPinConfigurationError, written: String) -> String {
        let keyPath = error.keyPath.isEmpty ? "" : "\(error.keyPath): "
        let location: String
        switch error.location {
        case .line(let line): location = " (line \(line))"
        case .binaryPlist: location = " (binary plist, no line)"
        case .unknown: location = ""
        }
        return "\(written): \(keyPath)\(error.problem)\(location)"
    }

    /// ` (entries: NSAppTransportSecurity.NSPinnedDomains["example.org"] (line 9), …)`.
    private static func entries(_ configuration: AppPinConfiguration) -> String {
        guard !configuration.domains.isEmpty else { return " (the file has no entries)" }
        let shown = configuration.domains.prefix(5).map { domain in
            "\(domain.keyPath)" + (domain.line.map { " (line \($0))" } ?? "")
        }
        let more = configuration.domains.count > shown.count ? ", …" : ""
        return " (entries: \(shown.joined(separator: ", "))\(more))"
    }

    private static func platform(_ name: AppPinPlatformName) -> AppPlatform {
        switch name {
        case .ats: .ats
        case .android: .android
        case .trustkit: .trustKit
        case .okhttp: .okHttp
        }
    }
}
