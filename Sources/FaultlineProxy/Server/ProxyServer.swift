import Dispatch
import FaultlineIO
import FaultlineLog
import FaultlineConfig
import FaultlineSync
#if canImport(Glibc)
import Glibc
#endif

/// The running proxy: one event loop per worker, each with its own SO_REUSEPORT listener
/// sockets, upstream pool and connections; config snapshots swapped atomically on reload.
/// What crosses loops, and how: docs/architecture.md, "Threading model".
public final class ProxyServer: Sendable {
    /// The loops the proxy runs on (the demo origin may share them).
    public let group: EventLoopGroup
    /// Where each configured listener ended up (ephemeral ports resolved).
    public let boundAddresses: [SocketAddress]

    private let contexts: [LoopContext]
    private let state: ProxyServerState
    private let admin: AdminServer?

    /// Binds every listener and starts serving `config` on `workers` loops.
    public init(config: ProxyConfig, events: @escaping @Sendable (ProxyEvent) -> Void) throws {
        let snapshot = try ConfigSnapshot(config: config, generation: 1)
        let allowedCPUs = CPUAffinity.allowedCPUs()
        let workers = config.workers > 0 ? config.workers : ProxyServer.processorCount(allowed: allowedCPUs)
        let group = try EventLoopGroup(count: workers, name: "worker")
        var placement = WorkerPlacement.choose(workers: workers, affinity: config.workerAffinity, allowedCPUs: allowedCPUs)
        if case .pinned(let cpus) = placement {
            do {
                try group.pin(to: cpus)
            } catch {
                placement = .floating(reason: "binding them to CPUs \(WorkerPlacement.list(cpus)) failed: \(error)")
            }
        }
        var perLoop: [[(fd: Int32, listener: Int)]] = Array(repeating: [], count: group.loops.count)
        var bound: [SocketAddress] = []
        do {
            for (listenerIndex, listener) in config.listeners.enumerated() {
                let requested = try SocketAddress.resolve(host: listener.address.host, port: listener.address.port)
                let (fds, actual) = try Sockets.listenGroup(on: requested, count: group.loops.count,
                                                            deferAccept: listener.deferAccept)
                for (index, fd) in fds.enumerated() { perLoop[index].append((fd, listenerIndex)) }
                bound.append(actual)
            }
        } catch {
            perLoop.joined().forEach { Sockets.close($0.fd) }
            group.stop()
            throw error
        }
        self.group = group
        self.boundAddresses = bound
        // Counted once the loops and listeners hold their descriptors.
        let descriptorLimit = DescriptorBudget.currentLimit()
        let ceiling = DescriptorBudget.connectionCeiling(limit: descriptorLimit)
        let state = ProxyServerState(snapshot: snapshot, events: events,
                                     connections: ConnectionCounter(ceiling: ceiling), descriptorLimit: descriptorLimit)
        self.state = state
        state.reportAppPinWarnings(of: snapshot)
        var contexts: [LoopContext] = []
        contexts.reserveCapacity(group.loops.count)
        for loop in group.loops {
            contexts.append(LoopContext(loop: loop, state: state, snapshot: snapshot))
        }
        self.contexts = contexts
        LoopContext.introduce(contexts)
        state.attach(contexts)
        let ready = DispatchSemaphore(value: 0)
        let failure = TracedMutex<String?>(nil)
        for context in contexts {
            let fds = perLoop[context.loop.index]
            context.loop.execute {
                context.start()
                for (fd, listenerIndex) in fds {
                    do {
                        try context.listen(fd: fd, listenerIndex: listenerIndex)
                    } catch {
                        failure.withLock { $0 = "\(error)" }
                    }
                }
                ready.signal()
            }
        }
        for _ in contexts { ready.wait() }
        if let error = failure.withLock({ $0 }) { throw ProxyStartError(message: error) }
        if let adminConfig = config.admin {
            let address = try SocketAddress.resolve(host: adminConfig.address.host, port: adminConfig.address.port)
            let admin = try AdminServer(config: adminConfig, address: address, loop: group.loops[0], router: AdminRouter(server: state, listenerAddresses: bound))
            self.admin = admin
            events(.adminListening(admin.boundAddress))
        } else {
            admin = nil
        }
        events(.workers(count: group.loops.count, placement: placement))
        state.ownAddresses.withLock { $0 = bound + (admin.map { [$0.boundAddress] } ?? []) }
        for address in bound { events(.listening(address)) }
        state.warnIfCapped(config.limits)
    }

    /// The snapshot new exchanges use.
    public var snapshot: ConfigSnapshot { state.snapshot }

    /// Client connections open now, across all loops.
    public var connectionCount: Int { state.connectionCount }

    /// Where the admin API listens, if configured.
    public var adminAddress: SocketAddress? { admin?.boundAddress }

    /// Compiles `config` and makes it the one new exchanges use; in-flight ones keep theirs.
    /// A config that does not compile is refused and the current one stays.
    public func reload(_ config: ProxyConfig) throws(ConfigErrors) {
        try state.reload(base: config)
    }

    /// Reopens the log file at its path (after rotation). On failure the old file stays in use.
    public func reopenLog() throws(LogSinkError) {
        try state.snapshot.log.reopen()
    }

    /// Reports a refused reload (the caller could not even parse the file).
    public func reportReloadFailure(_ message: String) {
        state.events(.reloadFailed(message))
    }

    /// Stops accepting, lets in-flight exchanges finish for up to `timeoutMilliseconds`, then
    /// stops the loops. Blocks the calling thread (not an event loop).
    public func drain(timeoutMilliseconds: Int) {
        state.events(.draining(connections: connectionCount))
        admin?.stop()
        for context in contexts {
            context.loop.execute { context.beginDrain() }
        }
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeoutMilliseconds) * 1_000_000
        while connectionCount > 0 && DispatchTime.now().uptimeNanoseconds < deadline {
            _ = DispatchSemaphore(value: 0).wait(timeout: .now() + .milliseconds(20))
        }
        state.events(.drained(abandoned: connectionCount))
        group.stop()
        // The state and the loop contexts point at each other (reloads reach the loops, the
        // loops reach the shared state); the server's own reference keeps the contexts alive
        // while the loops wind down, so the state lets go of them here and nothing is left in
        // a cycle when the process exits.
        state.attach([])
        // Every exchange has ended: what the log has queued goes out before the process exits.
        state.snapshot.log.sink?.close(timeout: 2)
    }

    /// One worker per CPU the process may run on (`allowed`, its affinity mask as `taskset` or a
    /// cpuset leaves it), as HAProxy sizes `nbthread`: two loops on one allowed CPU would only
    /// take turns. The online count when the mask is unknown; at most the config's 256.
    private static func processorCount(allowed: [Int]) -> Int {
        let count = allowed.isEmpty ? Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) : allowed.count
        return min(256, max(1, count))
    }
}

/// A listener could not be started.
public struct ProxyStartError: Error, CustomStringConvertible {
    /// What failed.
    public let message: String
    /// The message.
    public var description: String { message }
}
