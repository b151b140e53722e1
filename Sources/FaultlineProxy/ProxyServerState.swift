import FaultlineRules
import Synchronization

/// What every loop of the proxy shares: the current config snapshot, connection accounting,
/// pin outcomes and the event sink. Everything here is safe to touch from any thread.
///
/// The running configuration is the last one loaded from the file (or command line) with
/// the admin API's rule changes laid over it, so a SIGHUP reload keeps runtime rules.
final class ProxyServerState: Sendable {
    /// Open client connections.
    let connections = ConnectionCounter()
    /// Pin outcomes per upstream.
    let pinStatus = PinStatusBoard()
    /// Where notable events go (the executable prints them).
    private let eventSink: @Sendable (ProxyEvent) -> Void

    private struct Configuration {
        var snapshot: ConfigSnapshot
        var base: ProxyConfig
        var overlay = RuleOverlay()
        var generation: Int
    }

    private let current: Mutex<Configuration>
    private let loops = Mutex<[LoopContext]>([])

    init(snapshot: ConfigSnapshot, events: @escaping @Sendable (ProxyEvent) -> Void) {
        current = Mutex(Configuration(snapshot: snapshot, base: snapshot.config, generation: snapshot.generation))
        eventSink = events
    }

    /// Reports `event`, its texts redacted with the running configuration's rules first: a
    /// TLS error, pin report or reload error is no more allowed to carry a secret than a log
    /// record is.
    func events(_ event: ProxyEvent) {
        eventSink(event.redacted(by: snapshot.log.policy.redactor))
    }

    /// The loops that receive new snapshots; set once at start.
    func attach(_ contexts: [LoopContext]) {
        loops.withLock { $0 = contexts }
    }

    /// The snapshot new exchanges use.
    var snapshot: ConfigSnapshot { current.withLock { $0.snapshot } }

    /// The configuration last loaded from the file (or command line), without runtime changes.
    var base: ProxyConfig { current.withLock { $0.base } }

    /// The runtime rule changes in effect.
    var overlay: RuleOverlay { current.withLock { $0.overlay } }

    /// Client connections open now.
    var connectionCount: Int { connections.value }

    /// Makes `config` (from the file) the base; runtime rule changes stay on top of it.
    @discardableResult
    func reload(base config: ProxyConfig) throws(ConfigErrors) -> ConfigSnapshot {
        try update { state throws(ConfigErrors) in state.base = config }
    }

    /// Changes the runtime rules; nothing changes if the result does not compile.
    @discardableResult
    func updateOverlay(_ change: (inout RuleOverlay) throws(ConfigErrors) -> Void) throws(ConfigErrors) -> ConfigSnapshot {
        try update { state throws(ConfigErrors) in try change(&state.overlay) }
    }

    /// Compiles the changed configuration, then swaps it in everywhere: new exchanges use it,
    /// exchanges in flight finish on the snapshot they started with.
    private func update(_ change: (inout Configuration) throws(ConfigErrors) -> Void) throws(ConfigErrors) -> ConfigSnapshot {
        let next: ConfigSnapshot = try current.withLock { state throws(ConfigErrors) -> ConfigSnapshot in
            var changed = state
            try change(&changed)
            let effective = try changed.overlay.apply(to: changed.base)
            let snapshot = try ConfigSnapshot(config: effective, generation: state.generation + 1, previous: state.snapshot)
            changed.snapshot = snapshot
            changed.generation = snapshot.generation
            state = changed
            return snapshot
        }
        for context in loops.withLock({ $0 }) {
            context.loop.execute { context.snapshot = next }
        }
        events(.reloaded(generation: next.generation))
        return next
    }
}
