import Foundation

/// Strict ISO 8601 dates for `expires`: `YYYY-MM-DD` (midnight UTC starting that day) or
/// `YYYY-MM-DDThh:mm:ss[.fff](Z|±hh:mm)`. Parsed by hand so invalid days are refused the
/// same way on every platform.
enum ISODate {
    /// The instant `text` names, or nil when it is not one of the accepted forms.
    static func parse(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 10, let year = number(bytes, 0, 4), bytes[4] == UInt8(ascii: "-"),
              let month = number(bytes, 5, 2), bytes[7] == UInt8(ascii: "-"), let day = number(bytes, 8, 2),
              (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day) else { return nil }
        var seconds = Double(daysFromEpoch(year: year, month: month, day: day)) * 86_400
        if bytes.count == 10 { return Date(timeIntervalSince1970: seconds) }
        guard bytes.count >= 20, bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t"),
              let hour = number(bytes, 11, 2), bytes[13] == UInt8(ascii: ":"), let minute = number(bytes, 14, 2),
              bytes[16] == UInt8(ascii: ":"), let second = number(bytes, 17, 2),
              hour < 24, minute < 60, second < 60 else { return nil }
        seconds += Double(hour * 3600 + minute * 60 + second)
        var index = 19
        if bytes[index] == UInt8(ascii: ".") {
            let start = index + 1
            index = start
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            guard index > start, let fraction = Double("0." + String(decoding: bytes[start..<index], as: UTF8.self)) else {
                return nil
            }
            seconds += fraction
        }
        guard let offset = offsetSeconds(bytes[index...]) else { return nil }
        return Date(timeIntervalSince1970: seconds - Double(offset))
    }

    /// `Z` → 0, `±hh:mm` → signed seconds east of UTC; nil for anything else.
    private static func offsetSeconds(_ tail: ArraySlice<UInt8>) -> Int? {
        let bytes = Array(tail)
        if bytes == [UInt8(ascii: "Z")] || bytes == [UInt8(ascii: "z")] { return 0 }
        guard bytes.count == 6, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-"),
              let hours = number(bytes, 1, 2), bytes[3] == UInt8(ascii: ":"), let minutes = number(bytes, 4, 2),
              hours < 24, minutes < 60 else { return nil }
        let value = hours * 3600 + minutes * 60
        return bytes[0] == UInt8(ascii: "-") ? -value : value
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// The decimal number in `bytes[start..<start+count]`, all digits, or nil.
    private static func number(_ bytes: [UInt8], _ start: Int, _ count: Int) -> Int? {
        guard start + count <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[start..<(start + count)] {
            guard isDigit(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to the given proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func daysFromEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
