import FaultlineConfig
import FaultlineTLS

/// A loop's TLS settings for the real hosts behind intercepted connections: one client
/// context per trust setting (loading the system store once), one `UpstreamSecurity` per
/// host (the pool keys connections by it, so the same host reuses them). Bounded: past
/// `capacity` hosts the table starts over; connections keep the settings they were made with.
final class ForwardSecurityCache {
    private var contexts: [String: TLSClientContext] = [:]
    private var securities: [String: UpstreamSecurity] = [:]
    private static let capacity = 1024

    /// The settings for `upstream` (a forwarded one), trusting the system store and `caFile`.
    func security(for upstream: UpstreamConfig, caFile: String?) throws(TLSConfigurationError) -> UpstreamSecurity {
        let key = "\(upstream.name) \(caFile ?? "")"
        if let known = securities[key] { return known }
        let contextKey = caFile ?? ""
        let context: TLSClientContext
        if let known = contexts[contextKey] {
            context = known
        } else {
            context = try TLSClientContext(trustSystemStore: true, caFile: caFile, alpnProtocols: ["http/1.1"],
                                           minimumVersion: .tls12)
            contexts[contextKey] = context
        }
        if securities.count >= Self.capacity { securities.removeAll(keepingCapacity: true) }
        let security = UpstreamSecurity(forwardedTo: upstream, context: context)
        securities[key] = security
        return security
    }
}
