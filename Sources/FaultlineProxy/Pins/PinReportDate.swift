import Foundation

/// The date forms of pin failure reports: RFC 3339 `date-time` (`date-time`,
/// `effective-expiration-date`) and `full-date` (TrustKit's `known-pins-expiration-date`).
enum PinReportDate {
    /// The instant `text` names: `2026-12-01T10:00:00Z`, with fractional seconds or an offset.
    static func dateTime(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }

    /// Midnight UTC of `2027-01-31`.
    static func fullDate(_ text: String) -> Date? {
        guard text.utf8.count == 10 else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate, .withDashSeparatorInDate]
        return formatter.date(from: text)
    }
}
