/// A condition on the request's Host (port ignored, ASCII case-insensitive).
public enum HostPattern: Sendable, Hashable, CustomStringConvertible {
    /// The host must equal this lowercased name or literal (IPv6 in brackets).
    case exact(String)
    /// `*.suffix`: any subdomain of `suffix` (lowercased), but not `suffix` itself.
    case wildcard(suffix: String)

    /// Parses `example.com`, `*.example.com`, `10.0.0.1`, `[::1]` or `::1`; nil if malformed
    /// or if it carries a port, which would never match since ports are stripped.
    public init?(_ text: String) {
        var name = text.lowercased()
        if name.hasSuffix(".") && name.count > 1 { name.removeLast() }
        if name.hasPrefix("*.") {
            let suffix = String(name.dropFirst(2))
            guard HostSyntax.isHostName(suffix) else { return nil }
            self = .wildcard(suffix: suffix)
        } else if name.hasPrefix("["), name.hasSuffix("]") {
            guard IPLiteral.isIPv6(String(name.dropFirst().dropLast())) else { return nil }
            self = .exact(name)
        } else if IPLiteral.isIPv6(name) {
            self = .exact("[\(name)]")
        } else {
            guard HostSyntax.isHostName(name) else { return nil }
            self = .exact(name)
        }
    }

    /// The pattern as written in config (normalized).
    public var description: String {
        switch self {
        case .exact(let host): host
        case .wildcard(let suffix): "*.\(suffix)"
        }
    }
}

extension HostPattern {
    /// Whether `host` (a name or IP literal, port already removed) matches: ASCII
    /// case-insensitive, a trailing dot ignored, IPv6 with or without brackets.
    public func matches(host: String) -> Bool {
        var name = host.lowercased()
        if name.hasSuffix(".") && name.count > 1 { name.removeLast() }
        switch self {
        case .exact(let expected):
            if expected.hasPrefix("["), !name.hasPrefix("[") { return "[\(name)]" == expected }
            return name == expected
        case .wildcard(let suffix):
            return name.count > suffix.count + 1 && name.hasSuffix("." + suffix)
        }
    }
}
