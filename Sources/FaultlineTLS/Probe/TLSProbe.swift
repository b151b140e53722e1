#if canImport(Glibc)
import Glibc
#endif

/// A blocking one-shot handshake for CLI tools (`faultline pins compute host:port`, `pins
/// check`): never call it on an event loop thread.
public enum TLSProbe {
    /// Connects to `host:port`, completes a TLS handshake (even with an untrusted chain) and
    /// returns what the server served and whether it verified.
    ///
    /// - Parameters:
    ///   - caFile: trust this PEM file instead of the system store (like `curl --cacert`);
    ///     nil trusts the system store.
    ///   - timeoutMs: bounds the connect and the whole handshake.
    ///   - alpnProtocols: offered to the server; the result says which it picked.
    /// - Throws: `TLSProbeError` for resolution, connection, timeout and handshake failures.
    public static func fetchChain(host: String, port: UInt16, caFile: String?, timeoutMs: Int,
                                  alpnProtocols: [String] = ["h2", "http/1.1"]) throws(TLSProbeError) -> TLSProbeResult {
        let context: TLSClientContext
        do {
            context = try TLSClientContext(trustSystemStore: caFile == nil, caFile: caFile,
                                           alpnProtocols: alpnProtocols, verify: false, sessionCache: false)
        } catch {
            throw .configuration(error)
        }
        let (fd, address) = try TLSSocketConnector.connect(host: host, port: port, timeoutMs: timeoutMs)
        let session = context.makeSession(serverName: host, port: port)
        session.peerDescription = address
        let connection = TLSBlockingConnection(fd: fd, session: session, timeoutMs: timeoutMs)
        defer { connection.close() }
        try connection.handshake()
        return TLSProbeResult(peerAddress: address, servedChainDER: session.peerChainDER,
                              verifiedChainDER: session.verifiedChainDER, verifyError: session.verifyResult,
                              protocolVersion: session.protocolVersion, cipher: session.cipher,
                              alpn: session.negotiatedALPN)
    }
}
