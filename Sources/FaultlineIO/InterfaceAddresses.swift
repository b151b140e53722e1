#if canImport(Glibc)
import Glibc
#endif

/// The machine's own IP addresses (`getifaddrs`), for telling a phone or an emulator which
/// address reaches this machine. Blocking but instant (one netlink round trip); for
/// command-line tools, never an event loop.
public enum InterfaceAddresses {
    /// One address of one interface.
    public struct Entry: Sendable, Equatable {
        /// The interface, e.g. `eth0`, `wlan0`.
        public let interface: String
        /// The numeric address, IPv6 without brackets.
        public let ip: String
        /// Whether `ip` is IPv6.
        public let isIPv6: Bool
    }

    // Linux's <net/if.h> values (stable ABI); spelled out because Glibc's overlay imports
    // them as an enum whose type differs between C libraries.
    private static let interfaceUp: UInt32 = 0x1
    private static let interfaceLoopback: UInt32 = 0x8

    /// Every address of every interface that is up and not loopback, IPv4 first, in the
    /// kernel's order; IPv6 link-local addresses (fe80::/10, unusable without a zone) left out.
    public static func nonLoopback() -> [Entry] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(first) }
        var v4: [Entry] = []
        var v6: [Entry] = []
        var cursor: UnsafeMutablePointer<ifaddrs>? = first
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        while let current = cursor {
            cursor = current.pointee.ifa_next
            let flags = current.pointee.ifa_flags
            guard flags & interfaceUp != 0, flags & interfaceLoopback == 0, let address = current.pointee.ifa_addr else { continue }
            let name = current.pointee.ifa_name.map { String(cString: $0) } ?? ""
            switch Int32(address.pointee.sa_family) {
            case AF_INET:
                address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                    var raw = pointer.pointee.sin_addr
                    _ = inet_ntop(AF_INET, &raw, &buffer, socklen_t(buffer.count))
                }
                v4.append(Entry(interface: name, ip: text(buffer), isIPv6: false))
            case AF_INET6:
                address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                    var raw = pointer.pointee.sin6_addr
                    _ = inet_ntop(AF_INET6, &raw, &buffer, socklen_t(buffer.count))
                }
                let ip = text(buffer)
                if !ip.lowercased().hasPrefix("fe8") && !ip.lowercased().hasPrefix("fe9")
                    && !ip.lowercased().hasPrefix("fea") && !ip.lowercased().hasPrefix("feb") {
                    v6.append(Entry(interface: name, ip: ip, isIPv6: true))
                }
            default:
                continue
            }
        }
        return v4 + v6
    }

    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
