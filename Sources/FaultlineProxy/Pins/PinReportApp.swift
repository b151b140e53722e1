/// What a TrustKit report says beyond RFC 7469: the app, the TrustKit release, whether the
/// domain enforced its pins and how the validation ended. A vendor id and a bundle id are
/// identifiers, not secrets; they are logged like any other text (through redaction).
struct PinReportApp: Sendable, Equatable {
    let bundleID: String
    let version: String
    let platform: String
    let platformVersion: String?
    let vendorID: String
    let trustKitVersion: String
    let enforcePinning: Bool
    let validationResult: PinReportValidationResult
    /// `known-pins-expiration-date` (`yyyy-MM-dd`), when the domain has one.
    let knownPinsExpirationDate: String?
}
