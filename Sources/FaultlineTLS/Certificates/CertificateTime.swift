internal import FoundationEssentials
private import COpenSSL
#if canImport(Glibc)
import Glibc
#endif

/// Conversions between OpenSSL's ASN1_TIME and Date, and the ISO 8601 text shown to people.
enum CertificateTime {
    /// The start of `x509`'s validity window, or nil when it cannot be read.
    static func notBefore(of x509: OpaquePointer) -> Date? {
        date(X509_get0_notBefore(x509))
    }

    /// The end of `x509`'s validity window, or nil when it cannot be read.
    static func notAfter(of x509: OpaquePointer) -> Date? {
        date(X509_get0_notAfter(x509))
    }

    private static func date(_ time: UnsafePointer<ASN1_TIME>?) -> Date? {
        guard let time else { return nil }
        var parts = tm()
        guard ASN1_TIME_to_tm(time, &parts) == 1 else { return nil }
        let seconds = timegm(&parts)
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// `2026-06-01T00:00:00Z`.
    static func iso8601(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle())
    }

    /// `2026-06-01`.
    static func day(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle().year().month().day())
    }
}
