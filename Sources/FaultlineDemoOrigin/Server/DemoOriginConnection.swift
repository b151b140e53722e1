import FaultlineHTTP
import FaultlineIO

/// One client connection to the demo origin, living on one loop.
///
/// Requests are decoded one at a time: after a request ends, decoding stops until its response
/// is fully handed to the socket, so pipelined requests are answered in order and a client that
/// does not read cannot make the origin buffer without bound.
final class DemoOriginConnection: StreamSocketDelegate {
    /// Queued output above which the origin stops producing and reading.
    static let highWater = 256 * 1024
    /// Undecoded input held while a response is in progress, above which reading pauses.
    static let maxInbound = 256 * 1024

    let socket: StreamSocket
    /// The origin's token issuer, shared by all its connections.
    let tokens: DemoOriginTokens
    let decoder = HTTP1Decoder(kind: .request)
    var exchange: DemoOriginExchange?
    var producer = DemoOriginProducer.idle
    var timer: TimerID?
    var webSocket: DemoWebSocketFrameDecoder?
    /// Received bytes not yet decoded, because a response was in progress.
    var inbound: [UInt8] = []
    /// Whether a decoding pass is running (a re-entrancy guard beside the lifecycle: a pass
    /// starts and ends within one stage).
    var isDecoding = false
    /// Where the connection is: open, the peer's input ended (answers still go out), or
    /// finished (closing or closed: nothing more is read or written).
    var stage = Stage.open

    /// The connection's lifecycle.
    enum Stage {
        /// Reading and answering.
        case open
        /// The peer sent FIN: what is being answered completes, nothing more is read.
        case inputEnded
        /// Closing or closed.
        case finished
    }

    /// Closing or closed: nothing more is read or written.
    var isFinished: Bool { stage == .finished }
    /// The peer's input ended (and the connection is not finished).
    var peerClosed: Bool { stage == .inputEnded }
    /// The socket's delegate reference is weak: the connection keeps itself alive until it ends.
    private var retainer: DemoOriginConnection?

    private init(socket: StreamSocket, tokens: DemoOriginTokens) {
        self.socket = socket
        self.tokens = tokens
    }

    /// Takes over an accepted descriptor on `loop`.
    static func accept(fd: Int32, peer: SocketAddress?, loop: EventLoop, tokens: DemoOriginTokens) {
        do {
            let socket = try StreamSocket(fd: fd, loop: loop, peer: peer)
            let connection = DemoOriginConnection(socket: socket, tokens: tokens)
            socket.delegate = connection
            connection.retainer = connection
        } catch {
            Sockets.close(fd)
        }
    }

    // MARK: Socket events

    func socket(_ socket: StreamSocket, didRead bytes: UnsafeRawBufferPointer) {
        guard !isFinished else { return }
        if inbound.isEmpty {
            consume(bytes)
            afterInput()
        } else {
            inbound.append(contentsOf: bytes)
            resumeDecoding()
        }
    }

    func socketDidReadEOF(_ socket: StreamSocket) {
        if stage == .open { stage = .inputEnded }
        afterInput()
    }

    func socketDidDrain(_ socket: StreamSocket) {
        guard !isFinished else { return }
        pump()
        resumeDecoding()
    }

    func socketDidConnect(_ socket: StreamSocket) {}

    func socket(_ socket: StreamSocket, didFail error: IOError) {
        shutDown(reset: true)
    }

    // MARK: Input

    /// Whether the next HTTP bytes may be decoded now.
    var canDecode: Bool {
        !isFinished && webSocket == nil && !(exchange?.requestEnded ?? false)
            && socket.pendingWriteBytes <= DemoOriginConnection.highWater
    }

    /// Decodes or relays what it can of `bytes` and keeps the rest for later.
    private func consume(_ bytes: UnsafeRawBufferPointer) {
        isDecoding = true
        var used = bytes.count
        if webSocket != nil {
            receiveWebSocket(bytes)
        } else {
            used = decode(bytes)
        }
        isDecoding = false
        if used < bytes.count && !isFinished {
            inbound.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[used...]))
        }
    }

    /// Continues with held input once a response has finished or output has drained.
    func resumeDecoding() {
        guard !isDecoding, !isFinished else { return }
        if !inbound.isEmpty && (canDecode || webSocket != nil) {
            // Swapped out so that nothing reached from here can touch the array being read.
            let pending = inbound
            inbound = []
            pending.withUnsafeBytes { consume($0) }
        }
        afterInput()
    }

    /// After input has been handled: close if the peer is gone and nothing is left to answer,
    /// otherwise read only while output and held input are small.
    private func afterInput() {
        guard !isFinished, !isDecoding else { return }
        if peerClosed {
            let answering = exchange?.requestEnded ?? false
            let waiting = !inbound.isEmpty && !canDecode
            if !answering && !waiting { shutDown() }
            return
        }
        updateReading()
    }

    func updateReading() {
        guard !isFinished else { return }
        socket.setReading(!peerClosed && inbound.count < DemoOriginConnection.maxInbound
                          && socket.pendingWriteBytes <= DemoOriginConnection.highWater)
    }

    /// Decodes HTTP from `bytes` while a new request may be read; returns how many bytes were used.
    private func decode(_ bytes: UnsafeRawBufferPointer) -> Int {
        var offset = 0
        while offset < bytes.count && canDecode {
            let slice = UnsafeRawBufferPointer(rebasing: bytes[offset...])
            let status = decoder.feed(slice)
            for event in decoder.events {
                handle(event, in: slice)
                if isFinished { return bytes.count }
            }
            switch status {
            case .needMore:
                return bytes.count
            case .messageComplete(let consumed):
                decoder.resume()
                offset += consumed
            case .upgraded(let consumed):
                offset += consumed
                if webSocket != nil {
                    receiveWebSocket(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
                    return bytes.count
                }
                decoder.resumeAfterRefusedUpgrade()
            case .failed(let error):
                reject(error)
                return bytes.count
            }
        }
        return offset
    }

    // MARK: Closing

    /// Ends the connection: gracefully (queued output, then FIN) or with a reset.
    func shutDown(reset: Bool = false) {
        guard !isFinished else { return }
        stage = .finished
        if let timer { socket.loop.cancel(timer) }
        timer = nil
        producer = .idle
        if reset || socket.isClosed {
            socket.close(reset: true)
        } else {
            socket.closeGracefully()
        }
        retainer = nil
    }
}
