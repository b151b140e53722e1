import FaultlineConfig
import FaultlineTLS

/// A loop's TLS client contexts for the real hosts behind intercepted connections: one per
/// trust setting (so the system store is loaded once), shared by every host's settings.
/// A host's `UpstreamSecurity` is made once per forward destination and kept with its pool
/// (`ForwardPools`), so the same host keeps finding its connections.
final class ForwardSecurityCache {
    private var contexts: [String: TLSClientContext] = [:]
    private static let capacity = 64

    /// New settings for `upstream` (a forwarded one), trusting the system store and `caFile`.
    func security(for upstream: UpstreamConfig, caFile: String?) throws(TLSConfigurationError) -> UpstreamSecurity {
        let contextKey = caFile ?? ""
        let context: TLSClientContext
        if let known = contexts[contextKey] {
            context = known
        } else {
            context = try TLSClientContext(trustSystemStore: true, caFile: caFile, alpnProtocols: ["http/1.1"],
                                           minimumVersion: .tls12)
            // Trust files come from the configuration, so there are few; the bound only guards reloads.
            if contexts.count >= Self.capacity { contexts.removeAll(keepingCapacity: true) }
            contexts[contextKey] = context
        }
        return UpstreamSecurity(forwardedTo: upstream, context: context)
    }
}
