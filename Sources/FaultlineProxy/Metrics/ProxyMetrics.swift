import FaultlineLog
import FaultlineSync

/// The process-wide side of `GET /metrics`: the loops' shards, registered as the loops
/// start, and the per-upstream events (`UpstreamEvents`), which are rare enough for one lock.
///
/// Upstream names are bounded: a scrape and every rebase keep only the running
/// configuration's upstreams, and at most `maxUpstreams` names are held in between.
final class ProxyMetrics: Sendable {
    /// Upstream names held between prunes.
    static let maxUpstreams = 4096
    /// The one upstream label of every host a forward-proxy client names: the clients may
    /// name any number of hosts (the log and the journal name each one).
    static let forwardUpstream = "forward"

    private let shards = TracedMutex<[LoopMetrics]>([])
    private let upstreams = TracedMutex<[String: UpstreamEvents]>([:])

    /// Adds a loop's shard to what scrapes read.
    func register(_ shard: LoopMetrics) {
        shards.withLock { $0.append(shard) }
    }

    /// Every loop's shard.
    var loopShards: [LoopMetrics] { shards.withLock { $0 } }

    /// Counts an exchange that ended with an upstream connect (`tls` false) or TLS error.
    func upstreamFailed(_ upstream: String, tls: Bool) {
        update(upstream) { events in
            if tls { events.tlsErrors += 1 } else { events.connectErrors += 1 }
        }
    }

    /// Counts one handshake's pin check on `upstream`.
    func pinChecked(upstream: String, live: PinResult, candidatePassed: Bool?) {
        update(upstream) { $0.countPinCheck(live: live, candidatePassed: candidatePassed) }
    }

    /// Keeps the events of the upstreams named `names` only (the running configuration's).
    func retainUpstreams(_ names: Set<String>) {
        upstreams.withLock { all in all = all.filter { names.contains($0.key) } }
    }

    /// The events per upstream, after keeping those of `names` only.
    func upstreamEvents(retaining names: Set<String>) -> [String: UpstreamEvents] {
        upstreams.withLock { all in
            all = all.filter { names.contains($0.key) }
            return all
        }
    }

    private func update(_ upstream: String, _ change: (inout UpstreamEvents) -> Void) {
        upstreams.withLock { all in
            guard all[upstream] != nil || all.count < Self.maxUpstreams else { return }
            change(&all[upstream, default: UpstreamEvents()])
        }
    }
}
