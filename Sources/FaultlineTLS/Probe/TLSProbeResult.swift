/// What one handshake with a live server showed, for `pins compute` and `pins check`.
public struct TLSProbeResult: Sendable, Equatable {
    /// The numeric address connected to, e.g. "127.0.0.1:8443".
    public var peerAddress: String
    /// The chain the server sent, leaf first, DER.
    public var servedChainDER: [[UInt8]]
    /// The chain as validated, leaf to trust anchor; empty when it did not verify.
    public var verifiedChainDER: [[UInt8]]
    /// Why the chain is not trusted (includes a host name mismatch), or nil when it verified.
    public var verifyError: String?
    /// e.g. "TLSv1.3".
    public var protocolVersion: String
    /// e.g. "TLS_AES_256_GCM_SHA384".
    public var cipher: String
    /// The ALPN protocol the server selected, if any.
    public var alpn: String?
}
