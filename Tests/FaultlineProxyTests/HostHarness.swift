import Foundation
import Testing
import Synchronization
@testable import FaultlineProxy
import FaultlineConfig
import FaultlineIO
import FaultlineTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The proxy's host types in this process, without the binary, a listener or a client
/// socket from the network: one event loop with a `LoopContext` on a snapshot compiled from
/// JSON, and each client connected through a Unix socket pair whose proxy end a
/// `DownstreamConnection` (or, after the h2c preface, an `HTTP2Connection` and its streams)
/// owns. Tests write bytes on the other end and read exactly what the host wrote back.
final class HostHarness: @unchecked Sendable {
    let group: EventLoopGroup
    var loop: EventLoop { group.loops[0] }
    let context: LoopContext
    /// Connections the harness keeps alive (the loop's listener would); touched on the loop only.
    private var connections: [DownstreamConnection] = []

    init(configJSON: String) throws {
        let config = try ConfigLoader.parse(Data(configJSON.utf8), file: nil, checkFiles: false)
        let snapshot = try ConfigSnapshot(config: config, generation: 1)
        group = try EventLoopGroup(count: 1)
        let state = ProxyServerState(snapshot: snapshot, events: { _ in })
        context = LoopContext(loop: group.loops[0], state: state, snapshot: snapshot)
    }

    /// Never stopped: the loop's connections reach their context unowned, and a timer of
    /// the last test (a hang, a deadline) may still fire; suites share one harness instead.

    /// A new client connection: the host owns one end of a socket pair, the returned client
    /// the other. `h2c` lets the connection become HTTP/2 on the prior-knowledge preface.
    func connect(h2c: Bool = false, readTimeout: Duration = .seconds(5)) throws -> RawClient {
        let pair = try SocketPair(nonBlocking: true)
        let done = Mutex<Result<Void, any Error>?>(nil)
        let peer = SocketAddress(ip: "192.0.2.7", port: 40_000)
        loop.execute { [self] in
            do {
                let connection = try DownstreamConnection(fd: pair.first, peer: peer, context: context, tls: nil, h2c: h2c)
                connections.append(connection)
                done.withLock { $0 = .success(()) }
            } catch {
                done.withLock { $0 = .failure(error) }
            }
        }
        let outcome = try Deadline.pollBlocking("the host to take the connection", timeout: .seconds(10)) {
            done.withLock { $0 }
        }
        try outcome.get()
        return RawClient(fd: pair.second, readTimeout: readTimeout)
    }

    /// Runs `body` on the loop and waits for it.
    func onLoop<T: Sendable>(_ body: @escaping @Sendable () -> T) throws -> T {
        let result = Mutex<T?>(nil)
        loop.execute { result.withLock { $0 = body() } }
        return try Deadline.pollBlocking("the loop to run a task", timeout: .seconds(10)) { result.withLock { $0 } }
    }
}
