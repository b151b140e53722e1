import FaultlineHTTP
import FaultlineIO

/// Where a forward-proxy request goes: the host the client named (absolute-form URL, or the
/// CONNECT of the intercepted connection it came on), its address once looked up, and
/// whether it is spoken to over TLS.
struct ForwardDestination {
    /// The host and port the client asked for.
    let target: ForwardTarget
    /// The address, once known: a literal or a kept lookup at admission, else filled in
    /// when the lookup the upstream connect waits for ends (`ForwardResolver`).
    var address: SocketAddress?
    /// Whether the real host is spoken to over TLS (an intercepted CONNECT).
    let tls: Bool
    /// A CA file trusted for the real host besides the system store (`upstream_ca`).
    let caFile: String?

    /// Which of the loop's forward pools its connections share.
    var poolKey: ForwardPools.Key {
        ForwardPools.Key(host: target.host, port: target.port, tls: tls, caFile: caFile)
    }
}
