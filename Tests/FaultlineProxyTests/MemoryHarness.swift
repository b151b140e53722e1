import Foundation
@testable import FaultlineProxy
import FaultlineConfig
import FaultlineIO
import FaultlineMemoryIO

/// The proxy's host types on an in-memory network (`FaultlineMemoryIO`): no kernel socket,
/// no thread, no wall clock. A `LoopContext` on a snapshot compiled from JSON runs on a loop
/// that only the test drives; each client is a `DownstreamConnection` (or, after the h2c
/// preface, an `HTTP2Connection` and its streams) on the production `StreamSocket`, whose
/// system calls the network answers; upstream connects reach `MemoryOrigin`s. A test sends
/// bytes, runs the network and reads exactly what the host wrote, synchronously, and moves
/// time forward by hand (delays, hangs, throttles, idle limits).
final class MemoryHarness {
    let network: MemoryNetwork
    let context: LoopContext
    /// The origin at `MemoryHarness.originAddress`, the one upstream the configs name.
    let origin: MemoryOrigin

    /// Where configs point their upstream (`http://127.0.0.1:8080`); port 1 is refused.
    static let originAddress = address("127.0.0.1", 8080)
    /// The address clients connect from.
    static let clientAddress = address("192.0.2.7", 40_000)

    /// A literal address (test constants only).
    static func address(_ ip: String, _ port: UInt16) -> SocketAddress {
        guard let address = SocketAddress(ip: ip, port: port) else { preconditionFailure("\(ip) is not an address literal") }
        return address
    }

    /// `capacity` is each connection's receive buffer, per direction (small ones exercise
    /// backpressure).
    init(configJSON: String, originH2C: Bool = false, capacity: Int = 4 << 20) throws {
        let config = try ConfigLoader.parse(Data(configJSON.utf8), file: nil, checkFiles: false)
        let snapshot = try ConfigSnapshot(config: config, generation: 1)
        network = try MemoryNetwork(capacity: capacity)
        let state = ProxyServerState(snapshot: snapshot, events: { _ in })
        context = LoopContext(loop: network.loop, state: state, snapshot: snapshot)
        context.start()
        origin = MemoryOrigin(network: network, address: Self.originAddress, h2c: originH2C)
    }

    /// Ends every connection while the context is still alive (its connections reach it
    /// unowned), so that the test leaves nothing behind.
    deinit {
        network.tearDown()
    }

    /// A new client connection; returns the client's end. `h2c` lets it become HTTP/2 on
    /// the prior-knowledge preface.
    func connect(h2c: Bool = false) -> MemoryEndpoint {
        let (host, client) = network.connection()
        let socket = StreamSocket(transport: host, loop: network.loop, peer: Self.clientAddress)
        let connection = DownstreamConnection(socket: socket, context: context, secure: false, h2c: h2c)
        if !context.adopt(connection) { connection.closeNow() }
        return client
    }

    /// Runs the network, then moves time in steps of `stepMilliseconds` until `done` holds or
    /// `limitMilliseconds` of loop time have passed; returns whether `done` held.
    @discardableResult
    func settle(stepMilliseconds: Int = 10, limitMilliseconds: Int = 60_000, until done: () -> Bool) -> Bool {
        network.run()
        var waited = 0
        while !done() {
            guard waited < limitMilliseconds else { return false }
            network.advance(byMilliseconds: stepMilliseconds)
            waited += stepMilliseconds
        }
        return true
    }
}
