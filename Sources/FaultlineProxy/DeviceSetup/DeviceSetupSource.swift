import FaultlineConfig
import FaultlineIO

/// What the device-setup files are made from: the forward listener's CA certificate path, its
/// bound address and its host lists. Read from the running configuration; no I/O.
struct DeviceSetupSource: Sendable {
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
        guard let index = config.listeners.firstIndex(where: { $0.forward != nil }),
              let forward = config.listeners[index].forward else {
            caCertificatePath = ForwardProxyConfig.defaultCACertificatePath
            listener = nil
            intercept = []
            passThrough = []
            return
        }
        caCertificatePath = forward.caCertificatePath
        listener = index < bound.count ? bound[index] : nil
        intercept = forward.intercept
        passThrough = forward.passThrough
    }
}
