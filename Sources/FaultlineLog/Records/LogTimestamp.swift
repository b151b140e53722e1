import FaultlineHTTP
#if canImport(Glibc)
import Glibc
#endif

/// A wall-clock instant, read with `clock_gettime(CLOCK_REALTIME)` and formatted by
/// hand as RFC 3339 UTC with milliseconds (`2026-11-29T15:00:00.123Z`): no Foundation,
/// no DateFormatter, no allocation beyond the output.
public struct LogTimestamp: Sendable, Equatable {
    /// Seconds since the Unix epoch.
    public var seconds: Int64
    /// Nanoseconds within the second, 0..<1_000_000_000.
    public var nanoseconds: Int32

    /// Creates an instant from its parts.
    public init(seconds: Int64, nanoseconds: Int32 = 0) {
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }

    /// The current wall-clock time.
    public static func now() -> LogTimestamp {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return LogTimestamp(seconds: Int64(spec.tv_sec), nanoseconds: Int32(spec.tv_nsec))
    }

    /// The RFC 3339 text, e.g. `2026-11-29T15:00:00.123Z`.
    public var rfc3339: String {
        var out: [UInt8] = []
        append(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The most bytes the RFC 3339 text takes: a year of up to 20 digits, then 20 fixed.
    static let maxLength = 40

    /// Appends the RFC 3339 text to `out`.
    public func append(to out: inout [UInt8]) {
        ByteComposer.append(capacity: Self.maxLength, to: &out) { put(into: &$0) }
    }

    /// Writes the RFC 3339 text into `line` (room for `maxLength` bytes). Every field but a
    /// year past 9999 is written as two-digit pairs: `putDigits`' general loop per field cost
    /// most of the seven hundred instructions a line's time took.
    func put(into line: inout ByteComposer) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = Int(seconds - days * 86_400)
        let (year, month, day) = Self.civil(days: days)
        let millisecond = Int(max(0, min(999_999_999, nanoseconds)) / 1_000_000)
        if (0...9999).contains(year) {
            line.putTwoDigits(Int(year) / 100)
            line.putTwoDigits(Int(year) % 100)
        } else {
            line.putDigits(UInt64(max(0, year)), width: 4)
        }
        line.put(UInt8(ascii: "-"))
        line.putTwoDigits(Int(month))
        line.put(UInt8(ascii: "-"))
        line.putTwoDigits(Int(day))
        line.put(UInt8(ascii: "T"))
        line.putTwoDigits(secondOfDay / 3600)
        line.put(UInt8(ascii: ":"))
        line.putTwoDigits(secondOfDay / 60 % 60)
        line.put(UInt8(ascii: ":"))
        line.putTwoDigits(secondOfDay % 60)
        line.put(UInt8(ascii: "."))
        line.put(UInt8(ascii: "0") + UInt8(truncatingIfNeeded: millisecond / 100))
        line.putTwoDigits(millisecond % 100)
        line.put(UInt8(ascii: "Z"))
    }

    /// Year, month and day of a day count since 1970-01-01 (Howard Hinnant's algorithm).
    static func civil(days: Int64) -> (Int64, Int64, Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
