/// Where a forward-proxy client wants to go: the authority of an absolute-form request
/// (`GET http://host:port/path HTTP/1.1`, RFC 9112 §3.2.2) or of a CONNECT (authority form,
/// RFC 9112 §3.2.3), parsed strictly: no userinfo, port 1–65535, a host the URI grammar
/// allows (`HTTPAuthority`), at most `maxAuthorityBytes`.
public struct ForwardTarget: Sendable, Equatable {
    /// The longest authority accepted: a DNS name (253) plus brackets, colon and port.
    public static let maxAuthorityBytes = 262

    /// The host, lowercased; an IPv6 literal without its brackets.
    public let host: String
    /// The port (the scheme's default when an absolute-form target gives none).
    public let port: UInt16
    /// `host[:port]` as a Host header carries it (IPv6 bracketed, port left out when it is 80).
    public let hostHeader: String

    /// Creates a target; `host` lowercased, IPv6 without brackets.
    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
        let bracketed = host.utf8.contains(UInt8(ascii: ":")) ? "[\(host)]" : host
        hostHeader = port == 80 ? bracketed : "\(bracketed):\(port)"
    }

    /// `host:port` for messages and record fields (IPv6 bracketed).
    public var description: String {
        let bracketed = host.utf8.contains(UInt8(ascii: ":")) ? "[\(host)]" : host
        return "\(bracketed):\(port)"
    }

    /// Why a target was refused; `description` is the message the client gets.
    public enum Problem: Error, Equatable, CustomStringConvertible {
        /// Not absolute form (a proxy needs the full URL).
        case notAbsolute
        /// A scheme other than http.
        case scheme(String)
        /// `user@host`: credentials in the URL are never forwarded.
        case userinfo
        /// Longer than `maxAuthorityBytes`.
        case oversized(Int)
        /// Not `host[:port]` by the grammar, or a port outside 1–65535.
        case badAuthority
        /// A CONNECT without a port.
        case missingPort

        public var description: String {
            switch self {
            case .notAbsolute: "a forward proxy needs the full URL (GET http://host/path) or CONNECT host:port"
            case .scheme(let scheme): "scheme \"\(scheme)\" is not forwarded: send http:// URLs, and https through CONNECT"
            case .userinfo: "userinfo (user@host) in the request target is refused"
            case .oversized(let count): "authority of \(count) bytes exceeds \(ForwardTarget.maxAuthorityBytes)"
            case .badAuthority: "authority is not host:port with a port 1-65535"
            case .missingPort: "CONNECT needs host:port"
            }
        }
    }

    /// The target of a CONNECT request: exactly `host:port`.
    public static func connect(_ target: some Collection<UInt8>) -> Result<ForwardTarget, Problem> {
        let bytes = Array(target)
        guard bytes.count <= maxAuthorityBytes else { return .failure(.oversized(bytes.count)) }
        if bytes.contains(UInt8(ascii: "@")) { return .failure(.userinfo) }
        guard let authority = HTTPAuthority(bytes) else { return .failure(.badAuthority) }
        guard let port = authority.port else { return .failure(.missingPort) }
        guard let host = hostName(bytes.prefix(authority.hostLength)) else { return .failure(.badAuthority) }
        return .success(ForwardTarget(host: host, port: port))
    }

    /// The destination and origin-form target (`/path?query`, no fragment) of an
    /// absolute-form `http://` request target.
    public static func absolute(_ target: some Collection<UInt8>) -> Result<(target: ForwardTarget, origin: [UInt8]), Problem> {
        let bytes = Array(target)
        let separator = Array("://".utf8)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0,
              bytes[colon...].starts(with: separator) else { return .failure(.notAbsolute) }
        let scheme = String(decoding: bytes[..<colon], as: UTF8.self).lowercased()
        guard scheme == "http" else {
            return .failure(scheme.utf8.count <= 16 ? .scheme(scheme) : .notAbsolute)
        }
        let start = colon + separator.count
        let end = bytes[start...].firstIndex {
            $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#")
        } ?? bytes.endIndex
        let authorityBytes = bytes[start..<end]
        guard authorityBytes.count <= maxAuthorityBytes else { return .failure(.oversized(authorityBytes.count)) }
        if authorityBytes.contains(UInt8(ascii: "@")) { return .failure(.userinfo) }
        guard let authority = HTTPAuthority(authorityBytes),
              let host = hostName(authorityBytes.prefix(authority.hostLength)) else { return .failure(.badAuthority) }
        var origin = Array(bytes[end...])
        if let hash = origin.firstIndex(of: UInt8(ascii: "#")) { origin.removeSubrange(hash...) }
        if origin.first != UInt8(ascii: "/") { origin.insert(UInt8(ascii: "/"), at: 0) }
        return .success((ForwardTarget(host: host, port: authority.port ?? 80), origin))
    }

    /// The host part lowercased, brackets removed; nil when empty or percent-encoded (a name
    /// to resolve must be plain).
    private static func hostName(_ bytes: some Collection<UInt8>) -> String? {
        var text = String(decoding: bytes, as: UTF8.self).lowercased()
        if text.hasPrefix("[") && text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        guard !text.isEmpty, !text.contains("%") else { return nil }
        return text
    }
}
