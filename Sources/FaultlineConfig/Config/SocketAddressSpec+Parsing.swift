extension SocketAddressSpec {
    /// Parses `host:port` or `[v6]:port`, where host is an IP literal or `localhost`
    /// (taken as 127.0.0.1 so the proxy never binds whatever `localhost` resolves to).
    /// The thrown error has an empty path; callers attach the field path.
    public init(parsing text: String) throws(ConfigError) {
        let got = JSONValue.quoted(text)
        let hostPart: Substring
        let portPart: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"),
                  text[text.index(after: close)...].hasPrefix(":") else {
                throw ConfigError(path: "", message: "expected [IPv6]:port, got \(got)")
            }
            hostPart = text[text.index(after: text.startIndex)..<close]
            portPart = text[text.index(close, offsetBy: 2)...]
            guard IPLiteral.isIPv6(String(hostPart)) else {
                throw ConfigError(path: "", message: "expected [IPv6]:port with a valid IPv6 literal, got \(got)")
            }
        } else {
            guard let colon = text.lastIndex(of: ":") else {
                throw ConfigError(path: "", message: "expected host:port, got \(got)")
            }
            hostPart = text[..<colon]
            portPart = text[text.index(after: colon)...]
            if hostPart.contains(":") {
                throw ConfigError(path: "", message: "expected [IPv6]:port (IPv6 needs brackets), got \(got)")
            }
            guard hostPart == "localhost" || IPLiteral.isIPv4(String(hostPart)) else {
                throw ConfigError(
                    path: "",
                    message: "expected host:port with an IPv4/IPv6 literal or localhost as host, got \(got)")
            }
        }
        guard (1...5).contains(portPart.utf8.count),
              portPart.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
              let port = UInt16(portPart) else {
            throw ConfigError(path: "", message: "expected host:port with a port 0...65535, got \(got)")
        }
        self.init(host: hostPart == "localhost" ? "127.0.0.1" : String(hostPart), port: port)
    }
}
