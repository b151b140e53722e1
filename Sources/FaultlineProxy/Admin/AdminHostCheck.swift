#if canImport(Glibc)
import Glibc
#endif

/// Which `Host` values the admin API answers: the configured admin address, or a loopback
/// name (`localhost`, `127.0.0.1`, `[::1]`), always with the admin port. A page on
/// `http://evil.example:PORT` whose name was rebound to 127.0.0.1 (DNS rebinding) is thus
/// refused: its requests carry `Host: evil.example:PORT`. When the admin API binds a
/// wildcard address (0.0.0.0 or ::) any IP literal with the port is accepted too: a
/// rebinding attack needs a name, and a token is mandatory off loopback anyway. The public
/// device-setup files accept any IP literal with the port on every bind (`allowsPublicFile`).
struct AdminHostCheck: Sendable {
    private let port: UInt16
    private let names: Set<String>
    private let anyIPLiteral: Bool

    /// `configuredHost` as written in `admin.address` (IPv6 without brackets); `port` the
    /// port actually bound (the ephemeral one for port 0).
    init(configuredHost: String, port: UInt16) {
        self.port = port
        let host = configuredHost.lowercased()
        let configured = host.contains(":") ? "[\(host)]" : host
        names = ["localhost", "127.0.0.1", "[::1]", configured]
        anyIPLiteral = host == "0.0.0.0" || host == "::" || host == "[::]"
    }

    /// Whether `host` (the Host field's value, nil when absent) names this listener.
    func allows(_ host: String?) -> Bool {
        guard let host, let parsed = Self.split(host.lowercased()), parsed.port == port else { return false }
        return names.contains(String(parsed.name)) || (anyIPLiteral && Self.isIPLiteral(parsed.name))
    }

    /// A lowercased Host value's name (IPv6 in brackets) and port (80 when absent); nil when
    /// malformed, and a port that is not 1-5 digits gives a nil port.
    private static func split(_ value: String) -> (name: Substring, port: UInt16?)? {
        guard !value.isEmpty else { return nil }
        let name: Substring
        let portText: Substring?
        if value.hasPrefix("[") {
            guard let close = value.firstIndex(of: "]") else { return nil }
            name = value[...close]
            let rest = value[value.index(after: close)...]
            guard rest.isEmpty || rest.hasPrefix(":") else { return nil }
            portText = rest.isEmpty ? nil : rest.dropFirst()
        } else {
            let parts = value.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            name = parts[0]
            portText = parts.count > 1 ? parts[1] : nil
        }
        // No port means the scheme's default, 80.
        guard let portText else { return (name, 80) }
        return (name, portText.allSatisfy({ $0.isASCII && $0.isNumber }) && portText.count <= 5 ? UInt16(portText) : nil)
    }

    /// Whether `host` may fetch a public device-setup file: what `allows` accepts, or any IP
    /// literal with the admin port (a phone uses the machine's LAN address, the Android
    /// emulator 10.0.2.2; a DNS rebinding page would send a name, not a literal).
    func allowsPublicFile(_ host: String?) -> Bool {
        if allows(host) { return true }
        guard let host, let parsed = Self.split(host.lowercased()), parsed.port == port else { return false }
        return Self.isIPLiteral(parsed.name)
    }

    private static func isIPLiteral(_ name: Substring) -> Bool {
        if name.hasPrefix("[") && name.hasSuffix("]") {
            var address = in6_addr()
            return inet_pton(AF_INET6, String(name.dropFirst().dropLast()), &address) == 1
        }
        var address = in_addr()
        return inet_pton(AF_INET, String(name), &address) == 1
    }
}
