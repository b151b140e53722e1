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

    /// Appends the RFC 3339 text to `out`.
    public func append(to out: inout [UInt8]) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = Self.civil(days: days)
        let millisecond = Int64(max(0, min(999_999_999, nanoseconds)) / 1_000_000)
        guard (0...9999).contains(year) else {
            appendWide(year: year, month: month, day: day, secondOfDay: secondOfDay, millisecond: millisecond, to: &out)
            return
        }
        // Every field has a fixed width here: written into 24 bytes on the stack and appended
        // once (this runs for every log record).
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { text in
            func put(_ value: Int64, _ width: Int, at offset: Int) {
                var rest = value
                for index in stride(from: offset + width - 1, through: offset, by: -1) {
                    text[index] = UInt8(truncatingIfNeeded: 48 + rest % 10)
                    rest /= 10
                }
            }
            put(year, 4, at: 0)
            text[4] = UInt8(ascii: "-")
            put(month, 2, at: 5)
            text[7] = UInt8(ascii: "-")
            put(day, 2, at: 8)
            text[10] = UInt8(ascii: "T")
            put(secondOfDay / 3600, 2, at: 11)
            text[13] = UInt8(ascii: ":")
            put(secondOfDay / 60 % 60, 2, at: 14)
            text[16] = UInt8(ascii: ":")
            put(secondOfDay % 60, 2, at: 17)
            text[19] = UInt8(ascii: ".")
            put(millisecond, 3, at: 20)
            text[23] = UInt8(ascii: "Z")
            out.append(contentsOf: UnsafeBufferPointer(text))
        }
    }

    /// The same text for a year outside 0…9999 (wider or negative), digit by digit.
    private func appendWide(year: Int64, month: Int64, day: Int64, secondOfDay: Int64, millisecond: Int64,
                            to out: inout [UInt8]) {
        Self.digits(year, 4, &out)
        out.append(UInt8(ascii: "-"))
        Self.digits(month, 2, &out)
        out.append(UInt8(ascii: "-"))
        Self.digits(day, 2, &out)
        out.append(UInt8(ascii: "T"))
        Self.digits(secondOfDay / 3600, 2, &out)
        out.append(UInt8(ascii: ":"))
        Self.digits(secondOfDay / 60 % 60, 2, &out)
        out.append(UInt8(ascii: ":"))
        Self.digits(secondOfDay % 60, 2, &out)
        out.append(UInt8(ascii: "."))
        Self.digits(millisecond, 3, &out)
        out.append(UInt8(ascii: "Z"))
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

    /// Appends `value` zero-padded to `width` digits (more when it does not fit).
    static func digits(_ value: Int64, _ width: Int, _ out: inout [UInt8]) {
        var rest = max(0, value)
        var count = 1
        var scale: Int64 = 1
        while rest / scale >= 10 {
            scale *= 10
            count += 1
        }
        if count < width { out.append(contentsOf: repeatElement(48, count: width - count)) }
        while scale > 0 {
            out.append(UInt8(48 + rest / scale))
            rest %= scale
            scale /= 10
        }
    }
}
