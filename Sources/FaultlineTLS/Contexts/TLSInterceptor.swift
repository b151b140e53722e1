import FaultlineSync
private import COpenSSL
internal import FoundationEssentials

/// The server side of a forward proxy's HTTPS interception: one SSL_CTX shared by every
/// loop, whose certificate is chosen per connection: a leaf for the ClientHello's SNI name
/// (or, without SNI, the CONNECT host), minted on first use with the development CA, one
/// key reused for every leaf (so minting is one signature, no key generation), valid for a
/// short time inside the CA's validity, cached by name up to `capacity` (the oldest goes).
public final class TLSInterceptor: @unchecked Sendable {
    /// Leaves live this long (and never past the CA's end).
    public static let leafValiditySeconds: Double = 7 * 86_400
    /// A cached leaf closer than this to its end is minted again.
    static let renewBeforeSeconds: Double = 86_400

    /// The CA that signs the leaves.
    public let authority: CertificateAuthority
    /// How many names the cache keeps.
    public let capacity: Int
    private let leafKey: CertificateKey
    private let context: OpaquePointer
    private let callbacks: TLSServerCallbacks
    private let cache = TracedMutex(LeafCache())

    private struct LeafCache {
        var leaves: [String: Certificate] = [:]
        var order: [String] = []
        var minted = 0
    }

    /// Loads the CA (PEM certificate and key) and prepares the shared context.
    public init(caCertificateFile: String, caKeyFile: String, alpnProtocols: [String] = ["h2", "http/1.1"],
                capacity: Int = 1000) throws(TLSConfigurationError) {
        do {
            guard let certificate = try Certificate.loadAll(path: caCertificateFile).first else {
                throw TLSConfigurationError(file: caCertificateFile, "\(caCertificateFile): no certificate")
            }
            authority = try CertificateAuthority(certificate: certificate, key: try CertificateKey.load(path: caKeyFile))
            leafKey = try CertificateKey.generate()
        } catch let error as TLSConfigurationError {
            throw error
        } catch {
            throw TLSConfigurationError(file: caCertificateFile, "the interception CA \(caCertificateFile) / \(caKeyFile): \(error)")
        }
        self.capacity = max(1, capacity)
        let wire = try TLSContextBuilder.alpnWire(alpnProtocols)
        let ctx = try TLSContextBuilder.makeContext(server: true, minimum: .tls12, maximum: nil)
        _ = SSL_CTX_set_num_tickets(ctx, 1)
        context = ctx
        callbacks = TLSServerCallbacks(alpnWire: wire, serverNames: TLSServerNameTable())
        callbacks.install(on: ctx, sni: false)
        SSL_CTX_set_cert_cb(ctx, { ssl, arg in
            guard let ssl, let arg else { return 0 }
            let interceptor = Unmanaged<TLSInterceptor>.fromOpaque(arg).takeUnretainedValue()
            guard let name = SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name) else { return 1 }
            // SNI present: the leaf names what the client asked for (the CONNECT host's
            // leaf, set at creation, stays when minting fails).
            _ = interceptor.useLeaf(for: String(cString: name), on: ssl)
            return 1
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        SSL_CTX_free(context)
    }

    /// A server session for a connection to `host` (the CONNECT host: its leaf unless the
    /// ClientHello names another); nil when no leaf can be minted for it.
    public func makeSession(host: String) -> TLSSession? {
        guard let ssl = SSL_new(context) else { return nil }
        guard useLeaf(for: host, on: ssl) else {
            SSL_free(ssl)
            return nil
        }
        return TLSSession(ssl: ssl, isClient: false, owner: self)
    }

    /// Leaves minted so far (cache misses).
    public var mintedCount: Int {
        cache.withLock { $0.minted }
    }

    /// Names cached now.
    public var cachedCount: Int {
        cache.withLock { $0.leaves.count }
    }

    private func useLeaf(for name: String, on ssl: OpaquePointer) -> Bool {
        guard let leaf = leaf(for: name) else { return false }
        return SSL_use_certificate(ssl, leaf.x509) == 1 && SSL_use_PrivateKey(ssl, leafKey.evpKey) == 1
    }

    /// The cached leaf for `name`, minted when missing or near its end.
    func leaf(for rawName: String) -> Certificate? {
        var name = rawName.lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        if name.hasPrefix("[") && name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
        guard !name.isEmpty, name.utf8.count <= 253 else { return nil }
        let now = Date()
        if let cached = cache.withLock({ $0.leaves[name] }),
           cached.notAfter.timeIntervalSince(now) > Self.renewBeforeSeconds {
            return cached
        }
        let notBefore = max(now.addingTimeInterval(-3600), authority.certificate.notBefore)
        let notAfter = min(now.addingTimeInterval(Self.leafValiditySeconds), authority.certificate.notAfter)
        guard notAfter > now else { return nil }
        guard let minted = try? CertificateMinter.leaf(
            names: [name], key: leafKey, issuer: authority,
            validity: CertificateValidity(notBefore: notBefore, notAfter: notAfter)) else { return nil }
        let certificate = minted.certificate
        cache.withLock { cache in
            if cache.leaves[name] == nil {
                cache.order.append(name)
                if cache.order.count > capacity {
                    let oldest = cache.order.removeFirst()
                    cache.leaves[oldest] = nil
                }
            }
            cache.leaves[name] = certificate
            cache.minted += 1
        }
        return certificate
    }
}
