/// The protocol the proxy speaks to an upstream.
public enum UpstreamProtocol: String, Sendable, Equatable, CaseIterable {
    /// HTTP/1.1 (the default), over TLS for https upstreams.
    case http11 = "http/1.1"
    /// HTTP/2 over TLS: the ClientHello offers ALPN `h2` only; https upstreams only.
    case h2
    /// HTTP/2 over plain TCP with prior knowledge (no upgrade); http upstreams only.
    case h2c
}
