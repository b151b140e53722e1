/// A `uri-host [ ":" port ]` as a Host header or an absolute-form target carries it
/// (RFC 9110 §7.2, RFC 3986 §3.2.2–3.2.3), checked strictly: anything else in a Host value
/// (space, `/`, `?`, `#`, `@`, quotes, a second colon, a port that is not 1–65535) is refused,
/// so the value a log, a route or an upstream sees is one the grammar allows.
public struct HTTPAuthority: Sendable, Equatable {
    /// How many leading bytes of the value are the host (brackets of an IP literal included).
    public let hostLength: Int
    /// The port, when one is given; an empty port (`host:`) is none (RFC 3986 §3.2.3).
    public let port: UInt16?

    /// Parses `bytes`; nil when they are not a valid authority without userinfo.
    public init?(_ bytes: some Collection<UInt8>) {
        // In place when the bytes are contiguous (a header value is): no copy per request.
        let parsed: (hostLength: Int, port: UInt16?)?
        if let inPlace = bytes.withContiguousStorageIfAvailable(Self.parse) {
            parsed = inPlace
        } else {
            parsed = Array(bytes).withUnsafeBufferPointer(Self.parse)
        }
        guard let parsed else { return nil }
        hostLength = parsed.hostLength
        port = parsed.port
    }

    /// Parses bytes in place (a header or pseudo-header value). Concrete, so that a caller in
    /// another module does not go through the generic form's dispatch (about 1k instructions).
    public init?(_ bytes: UnsafeRawBufferPointer) {
        guard let parsed = Self.parse(bytes.assumingMemoryBound(to: UInt8.self)) else { return nil }
        hostLength = parsed.hostLength
        port = parsed.port
    }

    private static func parse(_ value: UnsafeBufferPointer<UInt8>) -> (hostLength: Int, port: UInt16?)? {
        guard let first = value.first else { return nil }
        var index = 0
        if first == UInt8(ascii: "[") {
            guard let close = value.firstIndex(of: UInt8(ascii: "]")), close > 1,
                  isIPLiteral(value[1..<close]) else { return nil }
            index = close + 1
        } else {
            while index < value.count && value[index] != UInt8(ascii: ":") {
                let byte = value[index]
                if byte == UInt8(ascii: "%") {
                    // pct-encoded: exactly two hex digits follow.
                    guard index + 2 < value.count, isHex(value[index + 1]), isHex(value[index + 2]) else { return nil }
                    index += 3
                    continue
                }
                guard isRegNameByte(byte) else { return nil }
                index += 1
            }
            guard index > 0 else { return nil }
        }
        if index == value.count { return (index, nil) }
        guard value[index] == UInt8(ascii: ":") else { return nil }
        let digits = value[(index + 1)...]
        if digits.isEmpty { return (index, nil) }
        guard let port = port(digits) else { return nil }
        return (index, port)
    }

    /// A port: 1–5 ASCII digits (no sign, no space) whose value is 1–65535. Accumulated in a
    /// type wide enough for five digits, so no input can overflow.
    public static func port(_ digits: some Collection<UInt8>) -> UInt16? {
        guard !digits.isEmpty, digits.count <= 5 else { return nil }
        var value: UInt32 = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + UInt32(byte - UInt8(ascii: "0"))
        }
        guard value >= 1, value <= UInt32(UInt16.max) else { return nil }
        return UInt16(value)
    }

    /// unreserved / sub-delims (RFC 3986 §2.2–2.3); `%` is handled by the caller.
    static func isRegNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="):
            true
        default:
            false
        }
    }

    static func isHex(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f"))
    }

    /// The inside of `[...]`: an IPv6 address (hex digits, colons, dots for an embedded IPv4)
    /// or an IPvFuture (`v` HEX+ `.` then unreserved / sub-delims / `:`).
    private static func isIPLiteral(_ inside: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
        guard let first = inside.first else { return false }
        if first | 0x20 == UInt8(ascii: "v") {
            guard let dot = inside.firstIndex(of: UInt8(ascii: ".")), dot > inside.startIndex + 1, dot < inside.endIndex - 1,
                  inside[(inside.startIndex + 1)..<dot].allSatisfy(isHex) else { return false }
            return inside[(dot + 1)...].allSatisfy { isRegNameByte($0) || $0 == UInt8(ascii: ":") }
        }
        guard inside.contains(UInt8(ascii: ":")) else { return false }
        return inside.allSatisfy { isHex($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }
    }
}
