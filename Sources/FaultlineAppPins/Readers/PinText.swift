import Foundation
import FaultlineTLS

/// Decoding of pin values and dates as the platforms spell them.
enum PinText {
    /// Strict standard base64 (surrounding whitespace ignored) of exactly 32 bytes.
    static func sha256(base64 text: String) -> SPKIPinValue? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let data = Data(base64Encoded: trimmed) else { return nil }
        return SPKIPinValue(digest: Array(data))
    }

    /// okio's lenient decoding (OkHttp): whitespace ignored, padding optional, the URL-safe
    /// alphabet accepted; nil when it is not base64 at all.
    static func lenientBase64(_ text: String) -> [UInt8]? {
        var cleaned = String(text.filter { !$0.isWhitespace })
        while cleaned.hasSuffix("=") { cleaned.removeLast() }
        cleaned = cleaned.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        guard cleaned.count % 4 != 1 else { return nil }
        cleaned += String(repeating: "=", count: (4 - cleaned.count % 4) % 4)
        return Data(base64Encoded: cleaned).map(Array.init)
    }

    /// `yyyy-MM-dd` as midnight UTC of that day; nil unless it names a real date.
    static func day(_ text: String) -> Date? {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, (1...2).contains(parts[1].count), (1...2).contains(parts[2].count),
              parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        guard let utc = TimeZone(identifier: "UTC") else { return nil }
        calendar.timeZone = utc
        let components = DateComponents(year: year, month: month, day: day)
        guard let date = calendar.date(from: components) else { return nil }
        let back = calendar.dateComponents([.year, .month, .day], from: date)
        guard back.year == year, back.month == month, back.day == day else { return nil }
        return date
    }

    /// `2026-01-31` for midnight UTC of that day.
    static func dayString(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: date)
    }
}
