import FaultlineSync

/// Clients that refused an intercepted certificate, per host: the app pins that host, or the
/// device does not trust the Faultline CA. After `forward.pass_through_after_refusals` a host
/// passes through (tunnelled, not intercepted) so the app keeps working. Shared by all loops;
/// bounded in hosts.
final class InterceptRefusals: Sendable {
    /// One host's refusals.
    struct Entry: Encodable, Sendable {
        let host: String
        var refusals: Int
        /// The last refusal, as the TLS layer described it.
        var lastReason: String
        /// Whether the host now passes through.
        var passThrough: Bool
        /// What the app pin file configured for the host says about the real chain, if one is.
        var appPins: String?

        enum CodingKeys: String, CodingKey {
            case host, refusals
            case lastReason = "last_reason"
            case passThrough = "pass_through"
            case appPins = "app_pins"
        }
    }

    private static let capacity = 10_000
    private let hosts = TracedMutex<[String: Entry]>([:])

    /// Counts a refusal for `host` (with what its app pin file says, `appPins`); with
    /// `threshold` reached, the host passes through from now on. The entry after counting.
    func record(host: String, reason: String, threshold: Int?, appPins: String?) -> Entry {
        hosts.withLock { hosts in
            var entry = hosts[host] ?? Entry(host: host, refusals: 0, lastReason: reason, passThrough: false)
            entry.refusals += 1
            entry.lastReason = reason
            entry.appPins = appPins
            if let threshold, entry.refusals >= threshold { entry.passThrough = true }
            if hosts[host] != nil || hosts.count < Self.capacity { hosts[host] = entry }
            return entry
        }
    }

    /// Whether refusals moved `host` to pass-through.
    func passesThrough(_ host: String) -> Bool {
        hosts.withLock { $0[host]?.passThrough ?? false }
    }

    /// Every host with refusals, most refused first.
    func list() -> [Entry] {
        hosts.withLock { Array($0.values) }.sorted { ($0.refusals, $1.host) > ($1.refusals, $0.host) }
    }
}
