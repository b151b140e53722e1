import FaultlineConfig
import FaultlineHTTP
import FaultlineIO
import FaultlineLog

/// A CONNECT to a pass-through host: after the connection-level faults (a delay before the
/// connect, a status, reset, close or hang instead of the 200), a byte tunnel between the
/// client and the real host, with backpressure both ways (a side that cannot take more
/// stops the other side's reads) and an optional throttle per direction. Ends with a
/// `tunnel` log record: host, bytes each way, duration, how it ended.
final class ForwardTunnel: ClientConnection, StreamSocketDelegate {
    /// Where the tunnel stands.
    enum Stage {
        /// A delay fault runs before the connect.
        case delaying(TimerID)
        /// The host's address is being looked up, off the loop.
        case resolving
        /// The connect to the real host is under way.
        case connecting
        /// Relaying bytes.
        case open
        /// A hang fault: nothing is said; the timer, if any, ends it.
        case hanging(TimerID?)
        /// Over.
        case closed
    }

    /// The facts the tunnel starts with.
    struct Setup {
        let target: ForwardTarget
        /// The host's address when known at the CONNECT; else it is looked up before the connect.
        let address: SocketAddress?
        let clientIP: String
        let clientPort: Int?
        let route: String?
        let plan: TunnelPlan
        let idleMs: Int
        let connectMs: Int
        /// Called once when the tunnel ends (fault counters, the tunnel bound).
        let onEnd: () -> Void
    }

    private let client: StreamSocket
    private var upstream: StreamSocket?
    private unowned(unsafe) let context: LoopContext
    private let setup: Setup
    private var stage: Stage
    private var address: SocketAddress?
    /// Client bytes that arrived with the CONNECT, sent once the tunnel opens.
    private var initial: [UInt8]
    private var bytesUp = 0
    private var bytesDown = 0
    private let startedAt: UInt64
    private var connectedAt: UInt64?
    private var lastActivity: UInt64
    private var paced = [Direction: [UInt8]]()
    private var pacingTimer: TimerID?

    private enum Direction { case up, down }
    /// Queued bytes past which the source stops being read.
    private static let highWater = 256 * 1024
    private static let tickMilliseconds = 50

    init(client: StreamSocket, initial: [UInt8], context: LoopContext, setup: Setup) {
        self.client = client
        self.initial = initial
        self.context = context
        self.setup = setup
        address = setup.address
        startedAt = context.loop.now
        lastActivity = startedAt
        stage = .connecting
        client.delegate = self
        client.setReading(false)
    }

    /// Applies the plan: a refusal, a delay, or the connect.
    func start() {
        switch setup.plan.refusal {
        case .status(let code)?:
            refuse(status: code, body: "injected by faultline (\(setup.plan.names.joined(separator: ", ")))\n", reason: "fault: status \(code)")
        case .reset?:
            finish("fault: reset", status: nil, closeClient: .reset)
        case .close?:
            finish("fault: close", status: nil, closeClient: .graceful)
        case .hang(let hang)?:
            var timer: TimerID?
            if let ms = hang.ms {
                timer = context.loop.schedule(afterMilliseconds: ms) { [weak self] in
                    self?.finish("fault: hang for \(ms) ms, then \(hang.then.rawValue)", status: nil,
                                 closeClient: hang.then == .reset ? .reset : .graceful)
                }
            }
            stage = .hanging(timer)
            // Read (and drop) what the client sends, so its close is noticed.
            client.setReading(true)
        case nil:
            if setup.plan.connectDelayMs > 0 {
                stage = .delaying(context.loop.schedule(afterMilliseconds: setup.plan.connectDelayMs) { [weak self] in
                    self?.connect()
                })
            } else {
                connect()
            }
        }
    }

    private func connect() {
        lastActivity = context.loop.now
        guard let address else {
            let answer = context.forwardResolver.resolve(setup.target) { [weak self] answer in
                guard let self, case .resolving = self.stage else { return }
                self.lookedUp(answer)
            }
            if let answer { lookedUp(answer) } else { stage = .resolving }
            return
        }
        stage = .connecting
        do {
            let socket = try StreamSocket.connect(to: address, on: context.loop)
            socket.delegate = self
            upstream = socket
        } catch {
            refuseAfterConnectFailure("\(error)")
        }
    }

    private func lookedUp(_ answer: Result<SocketAddress, IOError>) {
        switch answer {
        case .failure(let error):
            refuseAfterConnectFailure("\(error)")
        case .success(let resolved):
            if let reason = context.selfReference(setup.target, at: resolved) {
                refuse(status: 403, body: "forbidden: \(reason)\n", reason: "refused: \(reason)")
                return
            }
            address = resolved
            connect()
        }
    }

    private func refuseAfterConnectFailure(_ reason: String) {
        refuse(status: 502, body: "cannot connect to \(setup.target.description): \(reason)\n", reason: "connect failed: \(reason)")
    }

    /// Answers the CONNECT with `status` instead of the 200, and ends.
    private func refuse(status: Int, body: String, reason: String) {
        client.write(Array("HTTP/1.1 \(status) \(HTTPStatus.reason(status))\r\nContent-Type: text/plain\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)".utf8))
        finish(reason, status: status, closeClient: .graceful)
    }

    // MARK: StreamSocketDelegate

    func socketDidConnect(_ socket: StreamSocket) {
        guard socket === upstream, case .connecting = stage else { return }
        stage = .open
        connectedAt = context.loop.now
        client.write(Array("HTTP/1.1 200 Connection Established\r\n\r\n".utf8))
        if !initial.isEmpty {
            let bytes = initial
            initial = []
            bytes.withUnsafeBytes { relay($0, .up) }
        }
        client.setReading(true)
    }

    func socket(_ socket: StreamSocket, didRead bytes: UnsafeRawBufferPointer) {
        lastActivity = context.loop.now
        switch stage {
        case .open: relay(bytes, socket === client ? .up : .down)
        case .hanging: break
        case .delaying, .resolving, .connecting:
            if socket === client { initial.append(contentsOf: bytes) }
        case .closed: break
        }
    }

    func socketDidReadEOF(_ socket: StreamSocket) {
        let direction: Direction = socket === client ? .up : .down
        if case .open = stage, !(paced[direction]?.isEmpty ?? true) {
            // Throttled bytes still queued: they go out first, the pacer ends the tunnel.
            endAfterPacing = socket === client ? "client closed" : "upstream closed"
            socket.setReading(false)
            return
        }
        finish(socket === client ? "client closed" : "upstream closed", status: connectedAt == nil ? nil : 200,
               closeClient: .graceful)
    }

    func socketDidDrain(_ socket: StreamSocket) {
        // The side that was full took its bytes: the other side may be read again.
        let source = socket === client ? upstream : client
        let direction: Direction = socket === client ? .down : .up
        if case .open = stage, (paced[direction]?.count ?? 0) < Self.highWater { source?.setReading(true) }
    }

    func socket(_ socket: StreamSocket, didFail error: IOError) {
        if socket === upstream, case .connecting = stage {
            refuseAfterConnectFailure(error.description)
            return
        }
        finish("\(socket === client ? "client" : "upstream") failed: \(error)", status: connectedAt == nil ? nil : 200,
               closeClient: socket === client ? .none : .reset)
    }

    // MARK: Relaying

    private var endAfterPacing: String?

    private func relay(_ bytes: UnsafeRawBufferPointer, _ direction: Direction) {
        guard let upstream else { return }
        let (source, sink) = direction == .up ? (client, upstream) : (upstream, client)
        if direction == .up { bytesUp += bytes.count } else { bytesDown += bytes.count }
        let rate = direction == .up ? setup.plan.upBytesPerSecond : setup.plan.downBytesPerSecond
        if rate > 0 {
            paced[direction, default: []].append(contentsOf: bytes)
            if (paced[direction]?.count ?? 0) >= Self.highWater { source.setReading(false) }
            schedulePacing()
            return
        }
        sink.write(bytes)
        if sink.pendingWriteBytes >= Self.highWater { source.setReading(false) }
    }

    private func schedulePacing() {
        guard pacingTimer == nil else { return }
        pacingTimer = context.loop.schedule(afterMilliseconds: Self.tickMilliseconds) { [weak self] in
            self?.pace()
        }
    }

    /// Releases one tick's worth of each throttled direction.
    private func pace() {
        pacingTimer = nil
        guard case .open = stage, let upstream else { return }
        for direction in [Direction.up, .down] {
            guard var queue = paced[direction], !queue.isEmpty else { continue }
            let rate = direction == .up ? setup.plan.upBytesPerSecond : setup.plan.downBytesPerSecond
            let share = max(1, rate / (1000 / Self.tickMilliseconds))
            let count = min(share, queue.count)
            let (source, sink) = direction == .up ? (client, upstream) : (upstream, client)
            _ = queue.withUnsafeBytes { sink.write(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            queue.removeFirst(count)
            paced[direction] = queue
            if queue.count < Self.highWater && endAfterPacing == nil { source.setReading(true) }
        }
        lastActivity = context.loop.now
        let pending = paced.values.contains { !$0.isEmpty }
        if pending {
            schedulePacing()
        } else if let reason = endAfterPacing {
            finish(reason, status: 200, closeClient: .graceful)
        }
    }

    // MARK: Ending

    private enum ClientEnding { case graceful, reset, none }

    private func finish(_ reason: String, status: Int?, closeClient: ClientEnding) {
        switch stage {
        case .closed: return
        case .delaying(let timer): context.loop.cancel(timer)
        case .hanging(let timer?): context.loop.cancel(timer)
        case .hanging(nil), .resolving, .connecting, .open: break
        }
        stage = .closed
        if let pacingTimer { context.loop.cancel(pacingTimer) }
        pacingTimer = nil
        upstream?.delegate = nil
        upstream?.closeGracefully()
        upstream = nil
        client.delegate = nil
        switch closeClient {
        case .graceful: client.closeGracefully()
        case .reset: client.close(reset: true)
        case .none: client.close()
        }
        writeRecord(reason, status: status)
        setup.onEnd()
        context.connectionClosed(self)
    }

    private func writeRecord(_ reason: String, status: Int?) {
        let log = context.snapshot.log
        guard log.sink != nil else { return }
        var record = LogRecord(kind: .tunnel)
        record.clientAddress = setup.clientIP
        record.clientPort = setup.clientPort
        record.method = "CONNECT"
        record.host = setup.target.host
        record.serverPort = Int(setup.target.port)
        record.upstream = setup.target.description
        record.route = setup.route
        record.faults = setup.plan.names
        record.statusCode = status
        record.requestBodySize = bytesUp
        record.responseBodySize = bytesDown
        let now = context.loop.now
        if let connectedAt { record.connectMs = Double(connectedAt &- startedAt) / 1_000_000 }
        record.totalMs = Double(now &- startedAt) / 1_000_000
        record.setMessage("tunnel to \(setup.target.description) ended: \(reason)", policy: log.policy)
        log.write(event: record)
    }

    // MARK: ClientConnection

    func checkDeadline(now: UInt64) {
        switch stage {
        case .resolving, .connecting:
            // The connect timeout covers the lookup too: an answer after it is ignored.
            if now &- lastActivity > UInt64(setup.connectMs) * 1_000_000 {
                refuseAfterConnectFailure("no connection within \(setup.connectMs) ms")
            }
        case .open, .hanging(nil):
            if now &- lastActivity > UInt64(setup.idleMs) * 1_000_000 {
                finish("idle for \(setup.idleMs) ms", status: connectedAt == nil ? nil : 200, closeClient: .graceful)
            }
        case .delaying, .hanging(_?), .closed:
            break
        }
    }

    func drain() {
        finish("proxy shutting down", status: connectedAt == nil ? nil : 200, closeClient: .graceful)
    }
}
