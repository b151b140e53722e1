public import FoundationEssentials

/// The validity window of a certificate to mint.
public struct CertificateValidity: Sendable, Hashable {
    /// First instant of validity.
    public let notBefore: Date
    /// Last instant of validity.
    public let notAfter: Date

    /// A window from `notBefore` to `notAfter` (both may be in the past, for expired drills).
    public init(notBefore: Date, notAfter: Date) {
        self.notBefore = notBefore
        self.notAfter = notAfter
    }

    /// Valid from an hour before `now` (clock skew) for `days` days.
    public static func days(_ days: Int, from now: Date) -> CertificateValidity {
        CertificateValidity(notBefore: now.addingTimeInterval(-3600),
                            notAfter: now.addingTimeInterval(TimeInterval(days) * 86_400))
    }

    /// A window that ended a day before `now` (it lasted 90 days).
    public static func expired(at now: Date) -> CertificateValidity {
        CertificateValidity(notBefore: now.addingTimeInterval(-91 * 86_400), notAfter: now.addingTimeInterval(-86_400))
    }
}
