import FaultlineIO
#if canImport(Glibc)
import Glibc
#endif

/// An in-memory network for one event loop that is never `run()`: sockets on its
/// connections are the production `StreamSocket`s, their system calls answered in memory
/// and their events delivered by `run()`, on the test's thread, in order; time moves only
/// through `advance(byMilliseconds:)`. Setting it up makes every `StreamSocket.connect` on
/// the loop connect here: to a `listen`ing script (an origin), or refused.
///
/// The interface, as SwiftNIO's `EmbeddedChannel` + `EmbeddedEventLoop`: make a client
/// connection (`connection()`), `listen` at an address, `run()` until quiet,
/// `advance(byMilliseconds:)`; each `MemoryEndpoint` sends, receives and ends its side.
public final class MemoryNetwork: StreamNetwork {
    /// The loop the sockets live on; its clock is the network's.
    public let loop: EventLoop
    /// Ends that may have something to deliver, in creation order.
    private var endpoints: [MemoryEndpoint] = []
    private var listeners: [SocketAddress: (MemoryEndpoint) -> Void] = [:]
    /// Bytes a flow holds before the writer's writes come back short.
    private let capacity: Int

    /// A network on a new loop; `capacity` is each direction's receive buffer.
    public init(capacity: Int = 4 << 20) throws {
        loop = try EventLoop(index: 0)
        self.capacity = capacity
        loop.network = self
    }

    deinit {
        tearDown()
    }

    /// Ends every connection as a peer's reset would (each socket fails and its owner cleans
    /// up, as in production), refuses new connects, then drops the loop's timers and tasks:
    /// nothing a test built stays alive in a cycle (LeakSanitizer checks the test process).
    /// Call it while the sockets' owners are still alive; the network's deinit calls it too.
    public func tearDown() {
        listeners.removeAll()
        for _ in 0..<100 where !endpoints.isEmpty {
            for endpoint in endpoints { endpoint.failFromPeer() }
            run()
        }
        endpoints.removeAll()
        loop.discardWork()
    }

    /// The loop's time (monotonic ns), moved by `advance`.
    public var now: UInt64 { loop.now }

    /// A new connection: the end a host's socket takes (`StreamSocket(transport:…)`) and
    /// the test's end.
    public func connection() -> (host: MemoryEndpoint, test: MemoryEndpoint) {
        let (first, second) = pair(connectError: nil)
        return (second, first)
    }

    /// Accepts connections to `address` with `accept`, which gets the accepted end (it sets
    /// the end's script, or keeps it to drive by hand).
    public func listen(at address: SocketAddress, _ accept: @escaping (MemoryEndpoint) -> Void) {
        listeners[address] = accept
    }

    /// Refuses connections to `address` from now on.
    public func stopListening(at address: SocketAddress) {
        listeners[address] = nil
    }

    package func connect(to address: SocketAddress) throws(IOError) -> any StreamTransport {
        guard let accept = listeners[address] else {
            return pair(connectError: ECONNREFUSED).0
        }
        let (client, server) = pair(connectError: 0)
        accept(server)
        return client
    }

    private func pair(connectError: Int32?) -> (MemoryEndpoint, MemoryEndpoint) {
        let link = MemoryLink(capacity: capacity)
        let first = MemoryEndpoint(link: link, side: 0, stage: connectError.map { .connecting(error: $0) } ?? .open)
        let second = MemoryEndpoint(link: link, side: 1, stage: connectError == ECONNREFUSED ? .closed : .open)
        first.peer = second
        second.peer = first
        endpoints.append(first)
        if connectError != ECONNREFUSED { endpoints.append(second) }
        return (first, second)
    }

    /// Delivers events and runs the loop's due timers, tasks and turn-end work until
    /// nothing is left to deliver (bounded, so a socket that never consumes its events
    /// cannot hang a test); returns whether it ended quiet.
    @discardableResult
    public func run() -> Bool {
        for _ in 0..<100_000 {
            var delivered = false
            for endpoint in endpoints where endpoint.deliver() {
                delivered = true
            }
            endpoints.removeAll { $0.isClosed }
            loop.runTurn(at: loop.now)
            if !delivered && !endpoints.contains(where: \.hasNews) { return true }
        }
        return false
    }

    /// Moves the clock forward by `milliseconds`, firing each timer at its own time and
    /// running the network after each.
    public func advance(byMilliseconds milliseconds: Int) {
        let target = loop.now &+ UInt64(max(0, milliseconds)) &* 1_000_000
        run()
        var fired = 0
        while let next = loop.nextTimerDeadline, next <= target, fired < 1_000_000 {
            loop.runTurn(at: next)
            run()
            fired += 1
        }
        loop.runTurn(at: target)
        run()
    }
}
