private import COpenSSL

/// The server side of downstream TLS listeners: certificate(s), ALPN and SNI, built once and
/// shared by every event loop (an SSL_CTX is safe to create sessions from concurrently and
/// is never modified after init).
public final class TLSServerContext: @unchecked Sendable {
    /// Application protocols in preference order, e.g. ["http/1.1"] (later ["h2", "http/1.1"]).
    public let alpnProtocols: [String]

    private let defaultContext: OpaquePointer
    private let callbacks: TLSServerCallbacks

    /// Loads the default certificate and one per configured server name.
    ///
    /// - Parameters:
    ///   - certificateChainFile: PEM chain, leaf first, for names not in `serverNames`.
    ///   - privateKeyFile: the unencrypted key of that leaf.
    ///   - alpnProtocols: offered to clients in this preference order; if a client offers ALPN
    ///     and none matches, the connection continues without ALPN.
    ///   - serverNames: SNI name (exact or `*.example.com`, case-insensitive) → certificate.
    ///   - minimumVersion: never below TLS 1.2.
    ///   - maximumVersion: nil for the newest OpenSSL supports.
    /// - Throws: `TLSConfigurationError` naming the file and what is wrong with it.
    public init(certificateChainFile: String, privateKeyFile: String,
                alpnProtocols: [String] = ["http/1.1"],
                serverNames: [String: TLSCertificateFiles] = [:],
                minimumVersion: TLSProtocolVersion = .tls12,
                maximumVersion: TLSProtocolVersion? = nil) throws(TLSConfigurationError) {
        let wire = try TLSContextBuilder.alpnWire(alpnProtocols)
        var built: [OpaquePointer] = []
        do {
            func make(_ files: TLSCertificateFiles) throws(TLSConfigurationError) -> OpaquePointer {
                let ctx = try TLSContextBuilder.makeContext(server: true, minimum: minimumVersion, maximum: maximumVersion)
                built.append(ctx)
                try TLSContextBuilder.useCertificate(files, in: ctx)
                // Same id everywhere so a session survives the SNI context switch.
                _ = SSL_CTX_set_session_id_context(ctx, Self.sessionIDContext, UInt32(Self.sessionIDContext.count))
                // One TLS 1.3 ticket per handshake, not OpenSSL's two: a client resumes with
                // one and gets a fresh one each time; the second cost both sides a ticket's
                // encryption and a record on every full handshake.
                _ = SSL_CTX_set_num_tickets(ctx, 1)
                return ctx
            }
            let main = try make(TLSCertificateFiles(certificateChainFile: certificateChainFile, privateKeyFile: privateKeyFile))
            var table = TLSServerNameTable()
            for (name, files) in serverNames.sorted(by: { $0.key < $1.key }) {
                table.add(name, try make(files))
            }
            let callbacks = TLSServerCallbacks(alpnWire: wire, serverNames: table)
            callbacks.install(on: main, sni: !serverNames.isEmpty)
            for ctx in table.contexts { callbacks.install(on: ctx, sni: false) }
            self.defaultContext = main
            self.callbacks = callbacks
            self.alpnProtocols = alpnProtocols
        } catch {
            built.forEach { SSL_CTX_free($0) }
            throw error
        }
    }

    deinit {
        for ctx in callbacks.serverNames.contexts { SSL_CTX_free(ctx) }
        SSL_CTX_free(defaultContext)
    }

    /// A new server-side session for one accepted connection; call `start()` then feed it.
    /// Safe to call from any thread; the session itself then belongs to one loop.
    public func makeSession() -> TLSSession {
        TLSSession(ssl: SSL_new(defaultContext), isClient: false, owner: self)
    }

    private static let sessionIDContext: [UInt8] = Array("faultline".utf8)
}
