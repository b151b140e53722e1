import FaultlineConfig
import FaultlineTLS
import Synchronization

/// How Faultline talks TLS to one upstream: trust and session cache, the name to verify, and
/// the pins that narrow the verified chain. Compiled once per config snapshot.
final class UpstreamSecurity: Sendable {
    let upstreamName: String
    let context: TLSClientContext
    let serverName: String
    let port: UInt16
    let verifyHostname: Bool
    let pins: PinSet?
    /// Pins from an app file, read when the snapshot was compiled (never with `pins`).
    let appPins: AppPinRule?
    /// Whether the warnings that need a served chain (no backup outside it, matches only on
    /// an intermediate) were given; once per snapshot, at the first full handshake.
    let chainWarningsGiven = Atomic<Bool>(false)

    init(upstream: UpstreamConfig, tls: UpstreamTLSConfig, appPins: AppPinRule? = nil) throws(TLSConfigurationError) {
        upstreamName = upstream.name
        // An h2 upstream is offered HTTP/2 alone: a server that cannot speak it must say so
        // (no ALPN match) rather than quietly answer in HTTP/1.1.
        let alpn = upstream.httpProtocol == .h2 ? ["h2"] : ["http/1.1"]
        context = try TLSClientContext(trustSystemStore: tls.trust.system, caFile: tls.trust.caFile,
                                       alpnProtocols: alpn, minimumVersion: tls.minVersion.tlsVersion)
        serverName = tls.serverName
        port = upstream.port
        verifyHostname = tls.verifyHostname
        pins = tls.pins.map(PinSet.init(policy:))
        self.appPins = appPins
    }

    /// A forward-proxy destination's settings: a shared context (system store plus the
    /// forward listener's `upstream_ca`), the name verified, no pins.
    init(forwardedTo upstream: UpstreamConfig, context: TLSClientContext) {
        upstreamName = upstream.name
        self.context = context
        serverName = upstream.host
        port = upstream.port
        verifyHostname = true
        pins = nil
        appPins = nil
    }

    /// A client session for a new connection.
    func makeSession() -> TLSSession {
        context.makeSession(serverName: serverName, port: port, verifyHostname: verifyHostname)
    }
}

extension MinimumTLSVersion {
    /// The TLS engine's spelling of the same version.
    var tlsVersion: TLSProtocolVersion {
        switch self {
        case .tls12: .tls12
        case .tls13: .tls13
        }
    }
}
