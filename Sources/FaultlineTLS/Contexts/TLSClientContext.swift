private import COpenSSL
#if canImport(Glibc)
import Glibc
#endif

/// The client side of upstream HTTPS: trust, ALPN offer and a session cache for resumption,
/// built once per upstream and shared by every event loop (never modified after init; the
/// cache is locked).
public final class TLSClientContext: @unchecked Sendable {
    /// Whether sessions fail the handshake on an untrusted chain or a wrong host name.
    public let verifiesPeer: Bool
    /// ALPN names offered, in preference order; empty for none.
    public let alpnProtocols: [String]

    let context: OpaquePointer
    let cache: TLSSessionCache?

    /// Builds a client context.
    ///
    /// - Parameters:
    ///   - trustSystemStore: trust the system store (Debian: /etc/ssl/certs, ca-certificates).
    ///   - caFile: a PEM file of extra trusted CAs (e.g. a staging CA); must hold a certificate.
    ///   - alpnProtocols: offered to servers, e.g. ["http/1.1"].
    ///   - verify: false only for tools that must show an untrusted chain (`pins compute`):
    ///     the handshake then succeeds, `verifyResult` says why the chain is not trusted and
    ///     `verifiedChainDER` is empty unless it verified.
    ///   - sessionCache: keep the newest session per host:port and offer it again.
    ///   - minimumVersion: never below TLS 1.2.
    ///   - maximumVersion: nil for the newest OpenSSL supports.
    /// - Throws: `TLSConfigurationError`, e.g. "CA file x.pem contains no certificate".
    public init(trustSystemStore: Bool = true, caFile: String? = nil, alpnProtocols: [String] = [],
                verify: Bool = true, sessionCache: Bool = true,
                minimumVersion: TLSProtocolVersion = .tls12,
                maximumVersion: TLSProtocolVersion? = nil) throws(TLSConfigurationError) {
        if verify, !trustSystemStore, caFile == nil {
            throw TLSConfigurationError(file: nil, "no trust configured: enable the system store or give a CA file")
        }
        let wire = try TLSContextBuilder.alpnWire(alpnProtocols)
        let ctx = try TLSContextBuilder.makeContext(server: false, minimum: minimumVersion, maximum: maximumVersion)
        do {
            try Self.configureTrust(ctx, system: trustSystemStore, caFile: caFile)
        } catch {
            SSL_CTX_free(ctx)
            throw error
        }
        if !wire.isEmpty {
            _ = wire.withUnsafeBufferPointer { SSL_CTX_set_alpn_protos(ctx, $0.baseAddress, UInt32($0.count)) }
        }
        SSL_CTX_set_verify(ctx, verify ? SSL_VERIFY_PEER : SSL_VERIFY_NONE, Self.verifyCallback)
        if sessionCache {
            // Client sessions live in our per-host cache, not OpenSSL's internal one.
            _ = fl_SSL_CTX_set_session_cache_mode(ctx, Int(SSL_SESS_CACHE_CLIENT | SSL_SESS_CACHE_NO_INTERNAL_STORE))
            SSL_CTX_sess_set_new_cb(ctx, Self.newSessionCallback)
            cache = TLSSessionCache()
        } else {
            _ = fl_SSL_CTX_set_session_cache_mode(ctx, Int(SSL_SESS_CACHE_OFF))
            cache = nil
        }
        self.context = ctx
        self.verifiesPeer = verify
        self.alpnProtocols = alpnProtocols
    }

    deinit {
        SSL_CTX_free(context)
    }

    /// A client session for one connection to `serverName:port`: SNI (not for IP literals),
    /// host name or IP verification, and the cached session offered for resumption. Call
    /// `start()` and send what `takeOutput` returns. Safe to call from any thread.
    ///
    /// - Parameter verifyHostname: false checks the chain but not the name (rarely wanted).
    public func makeSession(serverName: String, port: UInt16, verifyHostname: Bool = true) -> TLSSession {
        let host = Self.bareHost(serverName)
        let key = host.lowercased() + ":" + String(port)
        let ssl = SSL_new(context)
        var offered: [[UInt8]] = []
        if let ssl {
            let isIP = Self.isIPLiteral(host)
            if !isIP, !host.isEmpty { _ = fl_SSL_set_tlsext_host_name(ssl, host) }
            if verifyHostname, !host.isEmpty {
                if isIP {
                    _ = X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host)
                } else {
                    SSL_set_hostflags(ssl, UInt32(X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS))
                    _ = SSL_set1_host(ssl, host)
                }
            }
            if let cache { offered = cache.offer(to: ssl, for: key) }
        }
        let display = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        return TLSSession(ssl: ssl, isClient: true, owner: self, verifiesPeer: verifiesPeer,
                          expectedHost: verifyHostname ? host : nil, peerDescription: display,
                          cache: cache, cacheKey: key, offeredChain: offered)
    }

    /// How many handshakes resumed a cached session (TLS 1.2 id/ticket or TLS 1.3 ticket).
    public var resumedSessionCount: Int { cache?.resumptionCount ?? 0 }

    /// How many host:port keys have a session cached.
    public var cachedSessionCount: Int { cache?.count ?? 0 }

    /// Drops the cached session for a host (e.g. after its pins stopped matching).
    public func forgetSession(serverName: String, port: UInt16) {
        cache?.remove(Self.bareHost(serverName).lowercased() + ":" + String(port))
    }

    static func bareHost(_ name: String) -> String {
        if name.hasPrefix("["), name.hasSuffix("]") { return String(name.dropFirst().dropLast()) }
        return name
    }

    static func isIPLiteral(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }
}
