import Foundation

/// Pure-Swift IP literal checks, so config validation needs no libc and behaves the
/// same everywhere.
enum IPLiteral {
    /// Dotted-quad IPv4: four decimal octets 0...255 without leading zeros (which some
    /// parsers read as octal).
    static func isIPv4(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return false }
        return parts.allSatisfy { part in
            guard (1...3).contains(part.count), part.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let value = Int(part), value <= 255 else { return false }
            return !(part.count > 1 && part.hasPrefix("0"))
        }
    }

    /// RFC 4291 text form: up to eight hex groups, at most one `::`, optionally ending in
    /// an embedded IPv4 address. Zone ids (`%eth0`) are not accepted.
    static func isIPv6(_ text: String) -> Bool {
        guard text.contains(":") else { return false }
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2 else { return false }
        var groups = 0
        for (halfIndex, half) in halves.enumerated() {
            if half.isEmpty { continue }
            let parts = half.split(separator: ":", omittingEmptySubsequences: false)
            for (index, part) in parts.enumerated() {
                let isLast = halfIndex == halves.count - 1 && index == parts.count - 1
                if isLast && part.contains(".") {
                    guard isIPv4(String(part)) else { return false }
                    groups += 2
                    continue
                }
                guard (1...4).contains(part.count), part.allSatisfy({ $0.isHexDigit && $0.isASCII }) else {
                    return false
                }
                groups += 1
            }
        }
        return halves.count == 2 ? groups <= 7 : groups == 8
    }
}
