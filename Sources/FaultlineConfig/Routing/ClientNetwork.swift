#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A CIDR block a client address must fall in (`10.0.0.0/8`, `::1/128`, a bare address).
/// IPv4 is held as IPv4-mapped IPv6 (`::ffff:a.b.c.d`), so an IPv4 block also takes a client
/// that a dual-stack listener reports in mapped form, and one comparison serves both families.
public struct ClientNetwork: Sendable, Hashable, CustomStringConvertible {
    /// The network's address, 128 bits, high then low.
    let high: UInt64
    let low: UInt64
    /// Prefix length over the 128-bit (mapped) form.
    let prefix: Int
    /// The block as written in config.
    public let description: String

    /// Parses `address[/length]`; nil when malformed or the length is out of range.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= 2, let bits = ClientNetwork.address(String(parts[0])) else { return nil }
        let maxLength = bits.isV4 ? 32 : 128
        var length = maxLength
        if parts.count == 2 {
            guard parts[1].count <= 3, parts[1].allSatisfy(\.isASCII), let value = Int(parts[1]), value >= 0, value <= maxLength else { return nil }
            length = value
        }
        prefix = bits.isV4 ? 96 + length : length
        let (maskHigh, maskLow) = ClientNetwork.mask(prefix)
        high = bits.high & maskHigh
        low = bits.low & maskLow
        description = text
    }

    /// Whether the client address, in its 128-bit form, lies in the block.
    func contains(high clientHigh: UInt64, low clientLow: UInt64) -> Bool {
        let (maskHigh, maskLow) = ClientNetwork.mask(prefix)
        return clientHigh & maskHigh == high && clientLow & maskLow == low
    }

    /// Whether `address` (an IPv4 or IPv6 literal) lies in the block; false when it is not a literal.
    public func contains(address: String) -> Bool {
        guard let bits = ClientNetwork.address(address) else { return false }
        return contains(high: bits.high, low: bits.low)
    }

    /// The 128-bit form of an IPv4 or IPv6 literal (IPv4 mapped), or nil.
    static func address(_ text: String) -> (high: UInt64, low: UInt64, isV4: Bool)? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            let value = UInt64(UInt32(bigEndian: v4.s_addr))
            return (0, 0xffff_0000_0000 | value, true)
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        var high: UInt64 = 0
        var low: UInt64 = 0
        withUnsafeBytes(of: &v6) { raw in
            for index in 0..<8 { high = high << 8 | UInt64(raw[index]) }
            for index in 8..<16 { low = low << 8 | UInt64(raw[index]) }
        }
        return (high, low, false)
    }

    private static func mask(_ prefix: Int) -> (UInt64, UInt64) {
        if prefix <= 0 { return (0, 0) }
        if prefix >= 128 { return (.max, .max) }
        if prefix <= 64 { return (prefix == 64 ? .max : ~(UInt64.max >> UInt64(prefix)), 0) }
        return (.max, ~(UInt64.max >> UInt64(prefix - 64)))
    }
}
