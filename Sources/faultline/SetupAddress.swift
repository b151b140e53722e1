/// A `HOST:PORT` given to `faultline setup`: a host name or IP literal (IPv6 in brackets) and
/// a port 1...65535.
struct SetupAddress: Equatable {
    /// The host as typed, lowercased; IPv6 with its brackets.
    let host: String
    let port: Int

    init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    init(parsing text: String, option: String) throws(UsageError) {
        let problem = UsageError("--\(option) expects HOST:PORT (IPv6 in brackets, port 1-65535), not \"\(text)\"")
        guard let colon = text.lastIndex(of: ":") else { throw problem }
        let host = text[..<colon].lowercased()
        let portText = text[text.index(after: colon)...]
        guard portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }), let port = Int(portText),
              (1...65535).contains(port) else { throw problem }
        if host.hasPrefix("[") {
            guard host.hasSuffix("]"), host.count > 2,
                  host.dropFirst().dropLast().allSatisfy({ $0.isASCII && ($0.isHexDigit || $0 == ":" || $0 == ".") }) else { throw problem }
        } else {
            guard !host.isEmpty, host.count <= 253,
                  host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }) else { throw problem }
        }
        self.host = host
        self.port = port
    }

    /// `host:port`.
    var text: String { "\(host):\(port)" }

    /// `0.0.0.0` or `[::]`: every address of this machine.
    var isWildcard: Bool { host == "0.0.0.0" || host == "[::]" }

    /// `localhost`, `127.x.y.z` or `[::1]`: reachable from this machine only.
    var isLoopback: Bool { host == "localhost" || host.hasPrefix("127.") || host == "[::1]" }

    /// An IPv4 literal or a bracketed IPv6 one.
    var isIPLiteral: Bool {
        if host.hasPrefix("[") { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { $0.count <= 3 && !$0.isEmpty && $0.allSatisfy(\.isNumber) && Int($0).map { $0 <= 255 } == true }
    }

    /// The same port on another host.
    func on(_ host: String) -> SetupAddress { SetupAddress(host: host, port: port) }
}
