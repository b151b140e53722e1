import FaultlineAppPins
import FaultlineConfig
import FaultlineTLS
import Foundation

/// Faultline's own upstream pins read as an app configuration, so that `pins app` can put
/// the proxy in the same matrix as the apps: each upstream's `pins` applies to the name it
/// verifies (`server_name`), judged by `ProxyPinRules` (the proxy's own `PinSet.evaluate`).
struct FaultlineUpstreamPins {
    /// One pinned upstream.
    struct Entry {
        let upstream: String
        let host: String
        let policy: PinPolicy

        var keyPath: String { "upstreams.\(upstream).pins" }
    }

    let file: String
    let entries: [Entry]
    let warnings: [String]

    /// Whether `data` looks like a Faultline config rather than a TrustKit JSON: an object
    /// with `upstreams` and none of TrustKit's keys.
    static func recognizes(_ data: Data) -> Bool {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return false }
        let trustKit = ["TSKConfiguration", "TSKPinnedDomains", "kTSKPinnedDomains"]
        return object["upstreams"] != nil && !trustKit.contains { object[$0] != nil }
    }

    /// Loads the config at `path` with the proxy's own loader; its errors name the field path.
    init(path: String) throws(UsageError) {
        do {
            let (config, warnings) = try ConfigLoader.loadWithWarnings(path: path)
            file = path
            entries = config.upstreams.compactMap { upstream in
                guard let tls = upstream.tls, let policy = tls.pins else { return nil }
                return Entry(upstream: upstream.name, host: HostPattern.normalize(tls.serverName), policy: policy)
            }
            self.warnings = warnings.map(\.description)
        } catch {
            throw UsageError(error.withFile(path).description)
        }
    }

    /// The names the pinned upstreams verify.
    var hosts: [String] {
        entries.map(\.host)
    }

    /// What the proxy does connecting to `host` over `chain` at `date`; several upstreams
    /// on one name must all accept the chain (the worst verdict wins).
    func evaluate(host: String, chain: AppChain, at date: Date) -> AppPinVerdict {
        let name = HostPattern.normalize(host)
        let verdicts = entries.filter { $0.host == name }.map {
            ProxyPinRules.evaluate($0.policy, entry: $0.keyPath, chain: chain, at: date)
        }
        return ProxyPinRules.worst(verdicts) ?? AppPinVerdict(outcome: .notPinned, reason: "no upstream with pins verifies \(name)")
    }
}
