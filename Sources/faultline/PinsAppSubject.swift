import FaultlineAppPins
import Foundation

/// One row group of the `pins app` matrix: an app configuration, read and judged with its
/// platform's rules, or Faultline's own upstream pins judged with the proxy's rules.
enum PinsAppSubject {
    case app(label: String, configuration: AppPinConfiguration)
    case faultline(label: String, pins: FaultlineUpstreamPins)

    /// Reads the file of `--app LABEL=FILE`; a file holding two configurations (an
    /// Info.plist with both ATS and TrustKit) gives two subjects, `LABEL/ats` and `LABEL/trustkit`.
    static func load(_ argument: PinsAppArguments.Labelled) throws(UsageError) -> [PinsAppSubject] {
        let path = argument.value
        // Read once, with the app file size limit, whichever kind of file it is.
        let data: Data
        do {
            data = try AppPinFile.contents(of: path)
        } catch {
            throw UsageError(error.description)
        }
        if FaultlineUpstreamPins.recognizes(data) {
            return [.faultline(label: argument.label, pins: try FaultlineUpstreamPins(path: path))]
        }
        let configurations: [AppPinConfiguration]
        do {
            configurations = try AppPinReader.read(data: data, file: path)
        } catch {
            throw UsageError(error.description)
        }
        // Anything unrecognized is read as an OkHttp list; one without a single entry was
        // not meant as one.
        if configurations.allSatisfy({ $0.platform == .okHttp && $0.domains.isEmpty }) {
            throw UsageError("\(path): not an app pin configuration (an Info.plist with NSPinnedDomains or TSKConfiguration, network_security_config.xml, TrustKit JSON, OkHttp CertificatePinner source or list, or a Faultline config)")
        }
        guard configurations.count > 1 else {
            return configurations.map { .app(label: argument.label, configuration: $0) }
        }
        return configurations.map { .app(label: "\(argument.label)/\($0.platform.rawValue)", configuration: $0) }
    }

    var label: String {
        switch self {
        case .app(let label, _), .faultline(let label, _): label
        }
    }

    /// `ATS`, `Android`, `TrustKit`, `OkHttp` or `Faultline`.
    var platform: String {
        switch self {
        case .app(_, let configuration): configuration.platform.displayName
        case .faultline: "Faultline"
        }
    }

    /// The platform's identifier in JSON.
    var platformKey: String {
        switch self {
        case .app(_, let configuration): configuration.platform.rawValue
        case .faultline: "faultline"
        }
    }

    var file: String {
        switch self {
        case .app(_, let configuration): configuration.file
        case .faultline(_, let pins): pins.file
        }
    }

    var warnings: [String] {
        switch self {
        case .app(_, let configuration): configuration.warnings
        case .faultline(_, let pins): pins.warnings
        }
    }

    /// The host names its entries name, in file order. A pattern stands for its domain; an
    /// OkHttp `*.domain` (which never covers the domain itself) for the sample name `*.domain`.
    var hosts: [String] {
        switch self {
        case .app(_, let configuration):
            configuration.domains.map { domain -> String in
                if case .oneLabelBelow(let name) = domain.pattern { return "*.\(name)" }
                return domain.pattern.domain
            }
        case .faultline(_, let pins):
            pins.hosts
        }
    }

    /// The verdict for `host` over `chain` at `date`.
    func evaluate(host: String, chain: AppChain, at date: Date, build: AppBuildVariant) -> AppPinVerdict {
        switch self {
        case .app(_, let configuration):
            AppPinEvaluator.evaluate(configuration, host: host, chain: chain, at: date, build: build)
        case .faultline(_, let pins):
            pins.evaluate(host: host, chain: chain, at: date)
        }
    }
}
