/// Which host names an entry of an app configuration applies to, as that platform matches
/// them. Names are compared in lower case without a trailing dot.
public enum HostPattern: Sendable, Hashable, CustomStringConvertible {
    /// Exactly this name.
    case exact(String)
    /// This name and every name below it, at any depth (Android and TrustKit
    /// `includeSubdomains`, OkHttp `**.`).
    case domainAndSubdomains(String)
    /// This name and the names exactly one label below it (ATS `NSIncludesSubdomains`: the
    /// check compares the host's parent domain only).
    case domainAndChildren(String)
    /// Names exactly one label below this one, not the name itself (OkHttp `*.`).
    case oneLabelBelow(String)

    /// The domain the pattern is anchored at.
    public var domain: String {
        switch self {
        case .exact(let name), .domainAndSubdomains(let name), .domainAndChildren(let name), .oneLabelBelow(let name): name
        }
    }

    /// Whether `host` (any case, trailing dot allowed) matches.
    public func matches(_ host: String) -> Bool {
        let name = HostPattern.normalize(host)
        switch self {
        case .exact(let domain):
            return name == domain
        case .domainAndSubdomains(let domain):
            return name == domain || name.hasSuffix("." + domain)
        case .domainAndChildren(let domain):
            return name == domain || HostPattern.parent(of: name) == domain
        case .oneLabelBelow(let domain):
            return HostPattern.parent(of: name) == domain && !name.hasPrefix(".")
        }
    }

    /// Whether the match of `host` is the exact name rather than a subdomain rule.
    public func matchesExactly(_ host: String) -> Bool {
        if case .oneLabelBelow = self { return false }
        return HostPattern.normalize(host) == domain
    }

    /// Lower case, without one trailing dot.
    public static func normalize(_ host: String) -> String {
        let lower = host.lowercased()
        return lower.hasSuffix(".") ? String(lower.dropLast()) : lower
    }

    /// The name without its first label, nil for a single label.
    static func parent(of name: String) -> String? {
        guard let dot = name.firstIndex(of: ".") else { return nil }
        let rest = name[name.index(after: dot)...]
        return rest.isEmpty ? nil : String(rest)
    }

    /// The pattern as the platform spells it (`**.example.com`, `example.com (and subdomains)`).
    public var description: String {
        switch self {
        case .exact(let domain): domain
        case .domainAndSubdomains(let domain): "\(domain) and its subdomains"
        case .domainAndChildren(let domain): "\(domain) and names one label below it"
        case .oneLabelBelow(let domain): "*.\(domain)"
        }
    }
}
