import FaultlineConfig
import FaultlineTLS
import Foundation

/// Reads a pin failure report: TrustKit's (`TSKPinFailureReport`) or RFC 7469 §3's. A body
/// with any member only TrustKit sends (`app-bundle-id`, `trustkit-version`…) is TrustKit's
/// and must carry all of TrustKit's members; any other is read as RFC 7469. Every member
/// is type- and range-checked; certificates must parse and are kept only as SPKI pins;
/// members neither format defines are kept aside for the log (`PinReport.extra`).
enum PinReportParser {
    /// Largest body accepted (a report with a chain of a few certificates takes a few KiB).
    static let bodyLimit = 64 * 1024
    /// Most certificates in one reported chain.
    static let maxCertificates = 16
    /// Most known pins in one report.
    static let maxPins = 64
    /// Most members neither format defines that are logged.
    static let maxExtra = 16

    private static let common: Set = ["date-time", "hostname", "port", "noted-hostname", "include-subdomains",
                                      "validated-certificate-chain", "known-pins"]
    private static let trustKitOnly: Set = ["app-bundle-id", "app-version", "app-platform", "app-platform-version",
                                            "app-vendor-id", "trustkit-version", "enforce-pinning", "validation-result",
                                            "known-pins-expiration-date"]
    private static let hpkpOnly: Set = ["served-certificate-chain", "effective-expiration-date"]

    /// The report in `body`, or why it is refused.
    static func parse(_ body: [UInt8]) throws(PinReportError) -> PinReport {
        guard body.count <= bodyLimit else { throw PinReportError(tooLarge: body.count, limit: bodyLimit) }
        guard !body.isEmpty else {
            throw PinReportError(field: nil, "empty body: expected a TrustKit or RFC 7469 pin failure report (a JSON object)")
        }
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: Data(body))
        } catch {
            throw PinReportError(field: nil, "the body is not valid JSON: expected a TrustKit or RFC 7469 pin failure report")
        }
        guard let object = parsed as? [String: Any] else {
            throw PinReportError(field: nil, "expected a JSON object, got \(PinReportFields.describe(parsed))")
        }
        let fields = PinReportFields(object: object)
        let isTrustKit = !trustKitOnly.isDisjoint(with: object.keys)
        let source = try isTrustKit ? trustKit(fields) : hpkp(fields)
        let dateTime = try fields.string("date-time")
        guard PinReportDate.dateTime(dateTime) != nil else {
            throw PinReportError(field: "date-time", "expected an RFC 3339 date-time such as 2026-12-01T10:00:00Z")
        }
        let known = common.union(isTrustKit ? trustKitOnly : hpkpOnly)
        return PinReport(source: source, dateTime: dateTime, hostname: try fields.string("hostname"),
                         port: try fields.integer("port", in: 0...65535), notedHostname: try fields.string("noted-hostname"),
                         includeSubdomains: try fields.bool("include-subdomains"), knownPins: try knownPins(fields),
                         validatedChain: try chain(fields, "validated-certificate-chain", minimum: isTrustKit ? 1 : 0),
                         extra: extra(object.filter { !known.contains($0.key) }))
    }

    private static func trustKit(_ fields: PinReportFields) throws(PinReportError) -> PinReportSource {
        let number = try fields.integer("validation-result", in: 0...(PinReportValidationResult.allCases.count - 1))
        guard let result = PinReportValidationResult(rawValue: number) else {
            throw PinReportError(field: "validation-result", "unknown value \(number)")
        }
        let expiration = try fields.optionalString("known-pins-expiration-date")
        if let expiration, PinReportDate.fullDate(expiration) == nil {
            throw PinReportError(field: "known-pins-expiration-date", "expected a date such as 2027-01-31")
        }
        return .trustKit(PinReportApp(
            bundleID: try fields.string("app-bundle-id"), version: try fields.string("app-version", empty: true),
            platform: try fields.string("app-platform"), platformVersion: try fields.optionalString("app-platform-version"),
            vendorID: try fields.string("app-vendor-id"), trustKitVersion: try fields.string("trustkit-version"),
            enforcePinning: try fields.bool("enforce-pinning"), validationResult: result, knownPinsExpirationDate: expiration))
    }

    private static func hpkp(_ fields: PinReportFields) throws(PinReportError) -> PinReportSource {
        let expiration = try fields.optionalString("effective-expiration-date")
        if let expiration, PinReportDate.dateTime(expiration) == nil {
            throw PinReportError(field: "effective-expiration-date", "expected an RFC 3339 date-time such as 2027-01-31T00:00:00Z")
        }
        return .hpkp(servedChain: try chain(fields, "served-certificate-chain", minimum: 1), effectiveExpirationDate: expiration)
    }

    /// The known pins, in any spelling `PinParser` reads (`pin-sha256="…"` as both formats send them).
    private static func knownPins(_ fields: PinReportFields) throws(PinReportError) -> [SPKIPinValue] {
        var pins: [SPKIPinValue] = []
        for (index, text) in try fields.strings("known-pins", minimum: 0, maximum: maxPins).enumerated() {
            do {
                pins.append(try PinParser.parse(text))
            } catch {
                throw PinReportError(field: "known-pins[\(index)]", error.message)
            }
        }
        return pins
    }

    /// A chain of PEM certificates, one per item, reduced to positions, subjects and pins.
    private static func chain(_ fields: PinReportFields, _ key: String,
                              minimum: Int) throws(PinReportError) -> [PinReportCertificate] {
        let pems = try fields.strings(key, minimum: minimum, maximum: maxCertificates, pem: true)
        var certificates: [Certificate] = []
        for (index, pem) in pems.enumerated() {
            let field = "\(key)[\(index)]"
            guard pem.contains("-----BEGIN CERTIFICATE-----") else {
                throw PinReportError(field: field, "expected a PEM certificate (-----BEGIN CERTIFICATE-----)")
            }
            let parsed: [Certificate]
            do {
                parsed = try Certificate.parseAll(Array(pem.utf8))
            } catch {
                throw PinReportError(field: field, "not a readable certificate: \(error.message)")
            }
            guard parsed.count == 1, let certificate = parsed.first else {
                throw PinReportError(field: field, "holds \(parsed.count) certificates; give one per item")
            }
            certificates.append(certificate)
        }
        return PinReportCertificate.of(certificates)
    }

    /// Up to `maxExtra` members (by name) as one compact JSON object, nil when there are none.
    private static func extra(_ members: [String: Any]) -> String? {
        guard !members.isEmpty else { return nil }
        var kept: [String: Any] = [:]
        for key in members.keys.sorted().prefix(maxExtra) { kept[key] = members[key] }
        guard let data = try? JSONSerialization.data(withJSONObject: kept, options: [.sortedKeys, .withoutEscapingSlashes]) else {
            return nil
        }
        return String(decoding: data, as: UTF8.self)
    }
}
