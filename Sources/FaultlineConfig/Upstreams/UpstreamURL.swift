/// The parts of an upstream `url` this version supports: `http(s)://host[:port][/]`.
/// Paths are refused because the proxy forwards the client's own path unchanged.
struct UpstreamURL: Equatable {
    let scheme: String
    /// Lowercased name or literal, IPv6 without brackets.
    let host: String
    let port: UInt16

    /// Parses `text`; the thrown error has an empty path for the caller to fill in.
    init(parsing text: String) throws(ConfigError) {
        let lower = text.lowercased()
        let scheme: String
        if lower.hasPrefix("https://") {
            scheme = "https"
        } else if lower.hasPrefix("http://") {
            scheme = "http"
        } else {
            throw ConfigError(path: "", message: "expected an http:// or https:// URL, got \(JSONValue.quoted(text))")
        }
        let rest = text.dropFirst(scheme.count + 3)
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        let tail = rest[authorityEnd...]
        let shape = "\(scheme)://host[:port]"
        if let at = authority.lastIndex(of: "@") {
            // Never echo credentials back into logs or terminals.
            let redacted = "\(scheme)://***@" + authority[authority.index(after: at)...] + tail
            throw ConfigError(path: "", message: "expected \(shape) without user info, got \(JSONValue.quoted(String(redacted)))")
        }
        let got = JSONValue.quoted(text)
        if tail.contains("?") {
            throw ConfigError(path: "", message: "expected \(shape) without a query, got \(got)")
        }
        if tail.contains("#") {
            throw ConfigError(path: "", message: "expected \(shape) without a fragment, got \(got)")
        }
        if !tail.isEmpty && tail != "/" {
            throw ConfigError(
                path: "",
                message: "expected \(shape) without a path (the client's path is forwarded as is), got \(got)")
        }
        var hostPart = authority
        var portPart: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else {
                throw ConfigError(path: "", message: "expected \(shape) with a valid host, got \(got)")
            }
            hostPart = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else {
                    throw ConfigError(path: "", message: "expected \(shape) with a valid host, got \(got)")
                }
                portPart = after.dropFirst()
            }
            guard IPLiteral.isIPv6(String(hostPart)) else {
                throw ConfigError(path: "", message: "expected \(shape) with a valid host, got \(got)")
            }
        } else {
            if let colon = authority.lastIndex(of: ":") {
                hostPart = authority[..<colon]
                portPart = authority[authority.index(after: colon)...]
            }
            guard HostSyntax.isHostName(String(hostPart)) else {
                throw ConfigError(path: "", message: "expected \(shape) with a valid host, got \(got)")
            }
        }
        var port: UInt16 = scheme == "https" ? 443 : 80
        if let portPart {
            guard (1...5).contains(portPart.utf8.count),
                  portPart.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                  let parsed = UInt16(portPart), parsed > 0 else {
                throw ConfigError(path: "", message: "expected \(shape) with a port 1...65535, got \(got)")
            }
            port = parsed
        }
        self.scheme = scheme
        self.host = hostPart.lowercased()
        self.port = port
    }
}
