import FaultlineLog
import Foundation

/// A kept report as `GET /pins/reports` and `GET /pins` show it: every text that came from
/// the app through the log's redaction (a query string in a host name; the extra members
/// redacted as a JSON body is), certificates as positions, subjects and pins only.
struct PinReportSummary: Sendable, Encodable {
    /// The app part of a TrustKit report.
    struct App: Sendable, Encodable {
        let bundleID: String
        let version: String
        let platform: String
        let platformVersion: String?
        let vendorID: String
        let trustKitVersion: String
        let enforcePinning: Bool
        let validationResult: String
        let knownPinsExpirationDate: String?

        enum CodingKeys: String, CodingKey {
            case bundleID = "bundle_id"
            case version
            case platform
            case platformVersion = "platform_version"
            case vendorID = "vendor_id"
            case trustKitVersion = "trustkit_version"
            case enforcePinning = "enforce_pinning"
            case validationResult = "validation_result"
            case knownPinsExpirationDate = "known_pins_expiration_date"
        }
    }

    /// Its number since the process started (1 for the first report).
    let id: Int
    /// When Faultline received it.
    let received: String
    let format: String
    /// The `hostname` label it was counted under in `/metrics`.
    let label: String
    let dateTime: String
    let hostname: String
    let port: Int
    let notedHostname: String
    let includeSubdomains: Bool
    let knownPins: [String]
    let validatedChain: [PinReportCertificate]
    let matched: [String]
    let servedChain: [PinReportCertificate]?
    let effectiveExpirationDate: String?
    let app: App?
    let extra: String?

    enum CodingKeys: String, CodingKey {
        case id
        case received
        case format
        case label
        case dateTime = "date_time"
        case hostname
        case port
        case notedHostname = "noted_hostname"
        case includeSubdomains = "include_subdomains"
        case knownPins = "known_pins"
        case validatedChain = "validated_chain"
        case matched
        case servedChain = "served_chain"
        case effectiveExpirationDate = "effective_expiration_date"
        case app
        case extra
    }

    /// `report` with its texts redacted by `redactor` (the log's free-text rules).
    init(_ report: PinReport, id: Int, label: String, received: Date, redactor: Redactor) {
        func clean(_ text: String) -> String { redactor.redact(text: text, field: "pin_report").text }
        self.id = id
        self.received = ISO8601DateFormatter().string(from: received)
        format = report.source.format
        self.label = label
        dateTime = clean(report.dateTime)
        hostname = clean(report.hostname)
        port = report.port
        notedHostname = clean(report.notedHostname)
        includeSubdomains = report.includeSubdomains
        knownPins = report.knownPins.map { "sha256/" + $0.base64 }
        validatedChain = report.validatedChain.map { PinReportCertificate(position: $0.position, subject: clean($0.subject), pin: $0.pin) }
        matched = report.matches.map(clean)
        // JSON, redacted as JSON: a sensitive member goes whole, whatever its type.
        extra = report.extra.map { redactor.redact(json: $0, field: "pin_report.extra").text }
        switch report.source {
        case .trustKit(let source):
            servedChain = nil
            effectiveExpirationDate = nil
            app = App(bundleID: clean(source.bundleID), version: clean(source.version), platform: clean(source.platform),
                      platformVersion: source.platformVersion.map(clean), vendorID: clean(source.vendorID),
                      trustKitVersion: clean(source.trustKitVersion), enforcePinning: source.enforcePinning,
                      validationResult: source.validationResult.name, knownPinsExpirationDate: source.knownPinsExpirationDate)
        case .hpkp(let served, let expiration):
            servedChain = served.map { PinReportCertificate(position: $0.position, subject: clean($0.subject), pin: $0.pin) }
            effectiveExpirationDate = expiration
            app = nil
        }
    }
}
