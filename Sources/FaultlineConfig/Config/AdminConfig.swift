import Foundation

/// The admin API listener.
public struct AdminConfig: Sendable, Equatable {
    /// The address to bind.
    public let address: SocketAddressSpec
    /// Bearer token required on admin requests, if any (required off loopback).
    public let token: String?
    /// The directory of the config file the admin section came from: the only place rule
    /// bodies sent to the admin API may name files in. Nil without a file (inline bodies only).
    public let configDirectory: String?

    /// Creates an admin listener configuration.
    public init(address: SocketAddressSpec, token: String? = nil, configDirectory: String? = nil) {
        self.address = address
        self.token = token
        self.configDirectory = configDirectory
    }

    /// Whether the address is a loopback one (`localhost`, 127.0.0.0/8, `::1`), reachable
    /// only from this machine: elsewhere a token is mandatory.
    public var isLoopback: Bool {
        let host = address.host.lowercased()
        if host == "localhost" { return true }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, host, &v6) == 1 {
            let bytes = withUnsafeBytes(of: &v6) { Array($0) }
            let loopback: [UInt8] = Array(repeating: 0, count: 15) + [1]
            let mapped: [UInt8] = Array(repeating: 0, count: 10) + [0xff, 0xff]
            return bytes == loopback || (Array(bytes[0..<12]) == mapped && bytes[12] == 127)
        }
        var v4 = in_addr()
        // 127.0.0.0/8; s_addr is in network order, so its first byte is the first octet.
        return inet_pton(AF_INET, host, &v4) == 1 && withUnsafeBytes(of: &v4) { $0[0] } == 127
    }
}
