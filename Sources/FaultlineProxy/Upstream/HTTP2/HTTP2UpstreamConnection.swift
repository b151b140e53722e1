import FaultlineHTTP
import FaultlineHTTP2
import FaultlineIO
import FaultlineTLS

/// One HTTP/2 connection from a loop to an upstream (`protocol: h2` or `h2c`), shared by the
/// streams of that loop's exchanges. It is opened on demand by `HTTP2UpstreamRegistry`,
/// writes nothing before the connect, the TLS handshake, the pin check and (for `h2`) the
/// ALPN check have passed, opens no stream before the peer's SETTINGS say how many it may
/// have, and then opens waiting streams as slots free up. Frames of one loop iteration leave
/// in one write (`scheduleFlush`).
final class HTTP2UpstreamConnection: StreamSocketDelegate {
    /// Its upstream (address and TLS settings): what the registry matches on.
    let key: UpstreamPool.Key
    let socket: StreamSocket
    /// The protocol state (client role).
    let session: HTTP2Session
    /// Where pin outcomes are counted and reported.
    let state: ProxyServerState
    /// `h2` over TLS: the server must select `h2` by ALPN.
    let requiresALPN: Bool
    /// How long it stays open without streams (the upstream's idle timeout).
    let idleMilliseconds: Int
    /// The loop's registry; it outlives its connections.
    unowned(unsafe) let registry: HTTP2UpstreamRegistry
    var lifecycle = HTTP2UpstreamLifecycle.connecting
    /// Opened streams by id.
    var streams = HTTP2StreamTable<HTTP2UpstreamStream>()
    /// Streams waiting to be opened, oldest first.
    var waiting: [HTTP2UpstreamStream] = []
    /// Since when it carried no stream (loop time, ns); nil while busy.
    private(set) var idleSince: UInt64?
    private var flushScheduled = false

    /// Starts connecting to `key`'s address (TLS when it has security settings).
    init(key: UpstreamPool.Key, loop: EventLoop, settings: HTTP2Settings, state: ProxyServerState,
         registry: HTTP2UpstreamRegistry, idleMilliseconds: Int, requiresALPN: Bool) throws(UpstreamFailure) {
        self.key = key
        self.state = state
        self.registry = registry
        self.idleMilliseconds = idleMilliseconds
        self.requiresALPN = requiresALPN
        do {
            session = try HTTP2Session(role: .client, settings: settings)
        } catch {
            throw .http2(error.message)
        }
        do {
            socket = try StreamSocket.connect(to: key.address, on: loop, transformer: key.security?.makeSession())
        } catch {
            throw .connect(error)
        }
        socket.delegate = self
        socket.setReading(true)
    }

    /// Whether it is still being set up (streams wait).
    var isConnecting: Bool { lifecycle.isConnecting }

    /// Streams opened or waiting.
    var load: Int { session.openStreamCount + waiting.count }

    /// How many streams may be open at once: the peer's limit once known.
    private var streamLimit: Int {
        guard case .ready = lifecycle else { return 100 }
        return Int(min(session.peerMaxConcurrentStreams, 10_000))
    }

    /// Whether a new exchange may use it: it accepts streams and fewer than the peer's limit
    /// wait beyond the open ones (more open another connection).
    var hasRoom: Bool {
        lifecycle.acceptsStreams && load < 2 * max(1, streamLimit)
    }

    // MARK: Streams

    /// A new exchange's stream; it opens at the next flush if the connection is ready.
    func attach(_ stream: HTTP2UpstreamStream) {
        idleSince = nil
        stream.connection = self
        waiting.append(stream)
        scheduleFlush()
    }

    /// Forgets a stream the exchange let go of (it ended, or never opened).
    func forget(_ stream: HTTP2UpstreamStream) {
        if let id = stream.id, streams[id] === stream { streams[id] = nil }
        waiting.removeAll { $0 === stream }
        noteIfIdle()
    }

    /// Resets an open stream with `code` and forgets it.
    func reset(_ stream: HTTP2UpstreamStream, id: Int32, code: HTTP2ErrorCode) {
        streams[id] = nil
        session.resetStream(streamID: id, errorCode: code)
        scheduleFlush()
        noteIfIdle()
    }

    /// Opens waiting streams while the peer allows more.
    private func openWaiting() {
        while !waiting.isEmpty && session.openStreamCount < streamLimit {
            let stream = waiting.removeFirst()
            do {
                try stream.open()
                if let id = stream.id { streams[id] = stream }
            } catch {
                stream.end()?.upstream(.http2(stream), reported: .failed(.http2(error.message)))
            }
        }
    }

    /// Notes when the last stream left; a retiring connection then closes.
    func noteIfIdle() {
        guard load == 0, streams.isEmpty, !isClosed else { return }
        idleSince = socket.loop.now
        if case .goingAway = lifecycle { finish() }
    }

    // MARK: Output

    /// Writes what the session has ready at the end of this loop iteration, so frames of
    /// many streams and events leave together.
    func scheduleFlush() {
        guard !flushScheduled, lifecycle.mayWrite else { return }
        flushScheduled = true
        socket.loop.schedule(afterMilliseconds: 0) { [weak self] in self?.flush() }
    }

    /// Opens what may open and writes every frame the session has ready.
    func flush() {
        flushScheduled = false
        guard lifecycle.mayWrite else { return }
        if case .ready = lifecycle { openWaiting() }
        var output: [UInt8] = []
        session.send(into: &output)
        if !output.isEmpty { socket.write(output) }
        session.handleEvents { handle(&$0) }
    }

    // MARK: Ending

    /// Retires the connection (reload, drain, idle): no new streams; it closes once the
    /// streams it carries have ended.
    func retire() {
        switch lifecycle {
        case .connecting, .awaitingSettings, .ready:
            lifecycle = .goingAway(lastStreamID: nil, pin: lifecycle.pin)
            registry.rehome(waitingOf: self)
            noteIfIdle()
        case .goingAway, .closed:
            break
        }
    }

    /// Closes politely: GOAWAY (NO_ERROR), then the socket once it is written.
    func finish() {
        guard lifecycle.mayWrite else {
            close(failing: .closedEarly)
            return
        }
        session.goAway(errorCode: .noError, lastStreamID: 0)
        var output: [UInt8] = []
        session.send(into: &output)
        if !output.isEmpty { socket.write(output) }
        lifecycle = .closed
        registry.remove(self)
        socket.closeGracefully()
        failAll(.closedEarly)
    }

    /// Closes now; every stream still attached fails with `failure`.
    func close(failing failure: UpstreamFailure) {
        guard !isClosed else { return }
        lifecycle = .closed
        registry.remove(self)
        socket.close()
        failAll(failure)
    }

    var isClosed: Bool {
        if case .closed = lifecycle { return true }
        return false
    }

    private func failAll(_ failure: UpstreamFailure) {
        let all = waiting + streams.values
        waiting = []
        streams.removeAll()
        for stream in all { stream.end()?.upstream(.http2(stream), reported: .failed(failure)) }
    }

    // MARK: StreamSocketDelegate

    func socketDidConnect(_ socket: StreamSocket) {
        // Retired while connecting: it closed already, or closes now that it could talk.
        guard case .connecting = lifecycle else { return }
        switch UpstreamConnection.checkPins(security: key.security, socket: socket, address: key.address, state: state) {
        case .refused(let refusal):
            // Nothing was written: the pin check runs before the preface.
            close(failing: .pinMismatch(refusal))
        case .passed(let pin):
            if requiresALPN {
                let selected = (socket.transformer as? TLSSession)?.negotiatedALPN
                guard selected == "h2" else {
                    close(failing: .alpnRefused(selected: selected))
                    return
                }
            }
            lifecycle = .awaitingSettings(pin: pin)
            flush()
        }
    }

    func socket(_ socket: StreamSocket, didRead bytes: UnsafeRawBufferPointer) {
        guard lifecycle.mayWrite else { return }
        session.receive(bytes)
        session.handleEvents { handle(&$0) }
        flush()
    }

    func socketDidReadEOF(_ socket: StreamSocket) {
        close(failing: .closedEarly)
    }

    func socketDidDrain(_ socket: StreamSocket) {}

    func socket(_ socket: StreamSocket, didFail error: IOError) {
        guard case .connecting = lifecycle else {
            close(failing: .io(error))
            return
        }
        close(failing: error.detail != nil ? .handshake(error) : .connect(error))
    }
}
