import FaultlineHTTP
import FaultlineIO

/// One client connection to the demo origin, living on one loop.
///
/// Requests are decoded one at a time: after a request ends, decoding stops until its response
/// is fully handed to the socket, so pipelined requests are answered in order and a client that
/// does not read cannot make the origin buffer without bound.
final class DemoOriginConnection: StreamSocketDelegate, RequestInputOwner {
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
    /// The input side: held input, the peer's end, closing (the lifecycle, shared with the
    /// admin API's connections).
    private(set) lazy var input = RequestInputLoop(socket: socket, owner: self, maxHeld: Self.maxInbound,
                                                   outputHighWater: Self.highWater)

    /// Closing or closed: nothing more is read or written.
    var isFinished: Bool { input.stage == .finished }
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
        input.received(bytes)
    }

    func socketDidReadEOF(_ socket: StreamSocket) {
        input.peerEnded()
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

    /// Whether the next bytes may be decoded now: WebSocket frames always, HTTP once the
    /// last response is out and output is small.
    var canDecode: Bool {
        !isFinished && (webSocket != nil || (!(exchange?.requestEnded ?? false)
            && socket.pendingWriteBytes <= DemoOriginConnection.highWater))
    }

    /// Decodes or relays what it can of `bytes`; the loop keeps the rest for later.
    func decode(_ bytes: UnsafeRawBufferPointer) -> Int {
        if webSocket != nil {
            receiveWebSocket(bytes)
            return bytes.count
        }
        return decodeHTTP(bytes)
    }

    /// The peer is gone and nothing is held: close, unless a response is in progress.
    func inputEnded() {
        if !(exchange?.requestEnded ?? false) { shutDown() }
    }

    /// Continues with held input once a response has finished or output has drained.
    func resumeDecoding() {
        input.resume()
    }

    func updateReading() {
        input.updateReading()
    }

    /// Decodes HTTP from `bytes` while a new request may be read; returns how many bytes were used.
    private func decodeHTTP(_ bytes: UnsafeRawBufferPointer) -> Int {
        var offset = 0
        while offset < bytes.count && canDecode && webSocket == nil {
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
        input.finish()
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
