import Foundation
import FaultlineConfig
import FaultlineHTTP
import FaultlineIO

/// Who may use a forward-proxy listener, and where to: the client allow-list, the
/// `Proxy-Authorization: Basic` credentials, and no request addressed to Faultline itself
/// (its listeners and admin API), which would loop or reach the admin API through the proxy.
struct ForwardGate {
    let config: ForwardProxyConfig

    /// A refusal for a client at `clientIP` sending `headers`, or nil when it may go on.
    func refusal(clientIP: String, headers: HTTPHeaders) -> LocalResponse? {
        guard config.allows(client: clientIP) else {
            return LocalResponse(status: 403, message: "forbidden: client \(clientIP) is not in forward.clients", keepAlive: false)
        }
        guard !config.credentials.isEmpty else { return nil }
        guard let value = headers.first("proxy-authorization"), accepts(value) else {
            var response = LocalResponse(status: 407, message: "proxy authentication required (Proxy-Authorization: Basic)",
                                         keepAlive: false)
            response.asksProxyCredentials = true
            return response
        }
        return nil
    }

    private func accepts(_ value: String) -> Bool {
        let parts = value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "basic",
              let decoded = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces)),
              let text = String(data: decoded, encoding: .utf8),
              let colon = text.firstIndex(of: ":") else { return false }
        let user = String(text[..<colon])
        let password = Array(text[text.index(after: colon)...].utf8)
        return config.credentials.contains { credential in
            credential.user == user && Self.constantTimeEqual(Array(credential.password.utf8), password)
        }
    }

    /// Compares without stopping at the first difference, so timing says nothing about the password.
    private static func constantTimeEqual(_ left: [UInt8], _ right: [UInt8]) -> Bool {
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for index in left.indices { difference |= left[index] ^ right[index] }
        return difference == 0
    }

    /// Whether `address` is one of Faultline's own sockets: same port, and the same IP, or
    /// a wildcard bind, or both on loopback.
    static func isOwn(_ address: SocketAddress, own: [SocketAddress]) -> Bool {
        own.contains { mine in
            guard mine.port == address.port else { return false }
            return mine.ip == address.ip || isUnspecified(mine.ip) || (isLoopback(mine.ip) && isLoopback(address.ip))
        }
    }

    private static func isUnspecified(_ ip: String) -> Bool {
        ip == "0.0.0.0" || ip == "::"
    }

    private static func isLoopback(_ ip: String) -> Bool {
        ip.hasPrefix("127.") || ip == "::1" || ip.hasPrefix("::ffff:127.")
    }
}
