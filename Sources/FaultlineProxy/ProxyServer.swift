import Dispatch
import FaultlineIO
import FaultlineRules
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The running proxy: one event loop per worker, each with its own SO_REUSEPORT listener
/// sockets, upstream pool and connections; config snapshots swapped atomically on reload.
public final class ProxyServer: Sendable {
    /// The loops the proxy runs on (the demo origin may share them).
    public let group: EventLoopGroup
    /// Where each configured listener ended up (ephemeral ports resolved).
    public let boundAddresses: [SocketAddress]

    private let contexts: [LoopContext]
    private let generation = Atomic<Int>(1)
    private let connections = ConnectionCounter()
    private let events: @Sendable (ProxyEvent) -> Void
    private let current: Mutex<ConfigSnapshot>

    /// Binds every listener and starts serving `config` on `workers` loops.
    public init(config: ProxyConfig, events: @escaping @Sendable (ProxyEvent) -> Void) throws {
        let snapshot = try ConfigSnapshot(config: config, generation: 1)
        let workers = config.workers > 0 ? config.workers : ProxyServer.processorCount()
        let group = try EventLoopGroup(count: workers)
        var perLoop: [[Int32]] = Array(repeating: [], count: group.loops.count)
        var bound: [SocketAddress] = []
        do {
            for listener in config.listeners {
                let requested = try SocketAddress.resolve(host: listener.address.host, port: listener.address.port)
                let (fds, actual) = try Sockets.listenGroup(on: requested, count: group.loops.count)
                for (index, fd) in fds.enumerated() { perLoop[index].append(fd) }
                bound.append(actual)
            }
        } catch {
            perLoop.joined().forEach(Sockets.close)
            group.stop()
            throw error
        }
        self.group = group
        self.boundAddresses = bound
        self.events = events
        self.current = Mutex(snapshot)
        var contexts: [LoopContext] = []
        contexts.reserveCapacity(group.loops.count)
        for loop in group.loops {
            contexts.append(LoopContext(loop: loop, connections: connections, snapshot: snapshot))
        }
        self.contexts = contexts
        let ready = DispatchSemaphore(value: 0)
        let failure = Mutex<String?>(nil)
        for context in contexts {
            let fds = perLoop[context.loop.index]
            context.loop.execute {
                context.start()
                for fd in fds {
                    do {
                        try context.listen(fd: fd)
                    } catch {
                        failure.withLock { $0 = "\(error)" }
                    }
                }
                ready.signal()
            }
        }
        for _ in contexts { ready.wait() }
        if let error = failure.withLock({ $0 }) { throw ProxyStartError(message: error) }
        for address in bound { events(.listening(address)) }
    }

    /// The snapshot new exchanges use.
    public var snapshot: ConfigSnapshot { current.withLock { $0 } }

    /// Client connections open now, across all loops.
    public var connectionCount: Int { connections.value }

    /// Compiles `config` and makes it the one new exchanges use; in-flight ones keep theirs.
    /// A config that does not compile is refused and the current one stays.
    public func reload(_ config: ProxyConfig) throws(ConfigErrors) {
        let next = try ConfigSnapshot(config: config, generation: generation.add(1, ordering: .relaxed).newValue)
        current.withLock { $0 = next }
        for context in contexts {
            context.loop.execute { context.snapshot = next }
        }
        events(.reloaded(generation: next.generation))
    }

    /// Reports a refused reload (the caller could not even parse the file).
    public func reportReloadFailure(_ message: String) {
        events(.reloadFailed(message))
    }

    /// Stops accepting, lets in-flight exchanges finish for up to `timeoutMilliseconds`, then
    /// stops the loops. Blocks the calling thread (not an event loop).
    public func drain(timeoutMilliseconds: Int) {
        events(.draining(connections: connectionCount))
        for context in contexts {
            context.loop.execute { context.beginDrain() }
        }
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeoutMilliseconds) * 1_000_000
        while connectionCount > 0 && DispatchTime.now().uptimeNanoseconds < deadline {
            _ = DispatchSemaphore(value: 0).wait(timeout: .now() + .milliseconds(20))
        }
        events(.drained(abandoned: connectionCount))
        group.stop()
    }

    private static func processorCount() -> Int {
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    }
}

/// A listener could not be started.
public struct ProxyStartError: Error, CustomStringConvertible {
    /// What failed.
    public let message: String
    /// The message.
    public var description: String { message }
}
