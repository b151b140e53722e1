#if canImport(Glibc)
import Glibc
#endif

/// An IPv4 or IPv6 socket address, resolved.
public struct SocketAddress: Sendable, Hashable, CustomStringConvertible {
    /// The textual IP address, e.g. "127.0.0.1" or "::1".
    public let ip: String
    /// The port.
    public let port: UInt16
    /// Whether the address is IPv6.
    public let isIPv6: Bool

    /// An address from a numeric IP literal and a port; nil if `ip` is not a literal.
    public init?(ip: String, port: UInt16) {
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, ip, &v4) == 1 {
            isIPv6 = false
        } else if inet_pton(AF_INET6, ip, &v6) == 1 {
            isIPv6 = true
        } else {
            return nil
        }
        self.ip = ip
        self.port = port
    }

    /// Resolves `host` (a literal or a name, through getaddrinfo) to its first address.
    /// Blocking: call at load time, never on an event loop.
    public static func resolve(host: String, port: UInt16) throws(IOError) -> SocketAddress {
        let literal = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if let address = SocketAddress(ip: literal, port: port) { return address }
        var hints = addrinfo()
        hints.ai_socktype = Sockets.streamType
        var result: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(literal, nil, &hints, &result)
        guard status == 0, let first = result else {
            if status == EAI_SYSTEM { throw IOError("resolve \(host)", code: errno) }
            // "Name or service not known" says more than any errno.
            throw IOError("resolve \(host)", code: ENOENT, detail: String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(result) }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        var info: UnsafeMutablePointer<addrinfo>? = first
        while let current = info {
            if let address = current.pointee.ai_addr, current.pointee.ai_family == AF_INET {
                address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                    var raw = pointer.pointee.sin_addr
                    _ = inet_ntop(AF_INET, &raw, &buffer, socklen_t(buffer.count))
                }
                if let resolved = SocketAddress(ip: Self.text(buffer), port: port) { return resolved }
            }
            info = current.pointee.ai_next
        }
        if let address = first.pointee.ai_addr, first.pointee.ai_family == AF_INET6 {
            address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                var raw = pointer.pointee.sin6_addr
                _ = inet_ntop(AF_INET6, &raw, &buffer, socklen_t(buffer.count))
            }
            if let resolved = SocketAddress(ip: Self.text(buffer), port: port) { return resolved }
        }
        throw IOError("resolve \(host)", code: ENOENT)
    }

    /// "127.0.0.1:8080" or "[::1]:8080".
    public var description: String {
        isIPv6 ? "[\(ip)]:\(port)" : "\(ip):\(port)"
    }

    /// Calls `body` with this address as a C sockaddr.
    func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        if isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            _ = inet_pton(AF_INET6, ip, &address.sin6_addr)
            return withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        _ = inet_pton(AF_INET, ip, &address.sin_addr)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    private static func text(_ buffer: [CChar]) -> String {
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Reads an address out of a sockaddr_storage (every accepted connection's peer): the
    /// text is formatted on the stack and not parsed back, so this allocates nothing.
    static func from(_ storage: UnsafePointer<sockaddr_storage>) -> SocketAddress? {
        let family = Int32(storage.pointee.ss_family)
        guard family == AF_INET || family == AF_INET6 else { return nil }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(INET6_ADDRSTRLEN) + 1) { buffer -> SocketAddress? in
            guard let base = buffer.baseAddress else { return nil }
            let length = socklen_t(buffer.count)
            if family == AF_INET {
                return storage.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                    SocketAddress(formatted: ipv4Text(pointer.pointee.sin_addr), port: UInt16(bigEndian: pointer.pointee.sin_port),
                                  isIPv6: false)
                }
            }
            return storage.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                var raw = pointer.pointee.sin6_addr
                guard inet_ntop(AF_INET6, &raw, base, length) != nil else { return nil }
                return SocketAddress(formatted: String(cString: base), port: UInt16(bigEndian: pointer.pointee.sin6_port), isIPv6: true)
            }
        }
    }

    /// Dotted-decimal text of an IPv4 address, as `inet_ntop` writes it. Written here because
    /// glibc's `inet_ntop` formats IPv4 through `sprintf`: about 1.7k instructions on every
    /// accepted connection, a few percent of a request on a new connection.
    static func ipv4Text(_ address: in_addr) -> String {
        let value = UInt32(bigEndian: address.s_addr)
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 15) { text in
            var count = 0
            for shift in stride(from: 24, through: 0, by: -8) {
                let octet = UInt8(truncatingIfNeeded: value >> UInt32(shift))
                if shift != 24 {
                    text[count] = UInt8(ascii: ".")
                    count += 1
                }
                if octet >= 100 {
                    text[count] = UInt8(ascii: "0") + octet / 100
                    count += 1
                }
                if octet >= 10 {
                    text[count] = UInt8(ascii: "0") + octet / 10 % 10
                    count += 1
                }
                text[count] = UInt8(ascii: "0") + octet % 10
                count += 1
            }
            return String(decoding: UnsafeBufferPointer(rebasing: text[..<count]), as: UTF8.self)
        }
    }

    /// An address whose text was just formatted, valid by construction.
    private init(formatted ip: String, port: UInt16, isIPv6: Bool) {
        self.ip = ip
        self.port = port
        self.isIPv6 = isIPv6
    }
}
