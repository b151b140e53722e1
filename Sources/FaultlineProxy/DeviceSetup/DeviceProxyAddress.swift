/// Which `host:port` a device should use for the forward proxy, worked out from what the
/// device already reached: the PAC file names it, and a device that fetched the PAC file from
/// the admin API at `http://192.168.1.20:9901/proxy.pac` reaches this machine as `192.168.1.20`.
/// Pure: no interface lookup, no DNS.
enum DeviceProxyAddress {
    /// The proxy's address for a device.
    /// - `listenerHost`, `listenerPort`: where the forward listener is bound (an IP literal,
    ///   IPv6 without brackets; the port actually bound).
    /// - `requestHost`: the admin request's Host value (already checked to name the admin API).
    ///
    /// A listener bound to one specific non-loopback address is named by that address. A
    /// wildcard (`0.0.0.0`, `::`) or loopback listener is named by the host the device used
    /// for the admin API: a LAN address for a phone (the wildcard listener answers there),
    /// `localhost` for the iOS simulator, `10.0.2.2` for the Android emulator (the emulator's
    /// alias of the machine's loopback).
    static func resolve(listenerHost: String, listenerPort: UInt16, requestHost: String?) -> String {
        let bound = listenerHost.lowercased()
        let host: String
        if !isWildcard(bound) && !isLoopback(bound) {
            host = bracketed(bound)
        } else if let name = requestHost.flatMap(hostPart), !name.isEmpty {
            host = name
        } else {
            host = "127.0.0.1"
        }
        return "\(host):\(listenerPort)"
    }

    /// Parses a `proxy=HOST:PORT` override: a host name or IPv4 literal (letters, digits, `.`,
    /// `-`), or an IPv6 literal in brackets, and a port 1...65535. Nil for anything else, so an
    /// override can never put arbitrary text in the PAC file.
    static func parseOverride(_ text: String) -> String? {
        guard text.utf8.count <= 260, let colon = text.lastIndex(of: ":") else { return nil }
        let host = text[..<colon]
        let portText = text[text.index(after: colon)...]
        guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }),
              let port = Int(portText), (1...65535).contains(port) else { return nil }
        if host.hasPrefix("[") {
            guard host.hasSuffix("]"), host.count > 2,
                  host.dropFirst().dropLast().allSatisfy({ $0.isASCII && ($0.isHexDigit || $0 == ":" || $0 == ".") }) else { return nil }
        } else {
            guard !host.isEmpty, host.count <= 253,
                  host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }) else { return nil }
        }
        return "\(host.lowercased()):\(port)"
    }

    /// `0.0.0.0` or `::`.
    static func isWildcard(_ host: String) -> Bool {
        host == "0.0.0.0" || host == "::" || host == "[::]"
    }

    /// `localhost`, `127.x.y.z`, `::1`.
    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host.hasPrefix("127.") || host == "::1" || host == "[::1]"
    }

    /// The host part of a Host value (`name:port`, `[v6]:port`), lowercased, brackets kept.
    static func hostPart(_ value: String) -> String? {
        let lowered = value.lowercased()
        if lowered.hasPrefix("[") {
            guard let close = lowered.firstIndex(of: "]") else { return nil }
            return String(lowered[...close])
        }
        return lowered.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)
    }

    private static func bracketed(_ host: String) -> String {
        host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    }
}
