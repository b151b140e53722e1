import FaultlineIO
#if canImport(Glibc)
import Glibc
#endif

/// One end of an in-memory connection. The end a `StreamSocket` sits on answers its system
/// calls (`StreamTransport`); the other end is the test's: it sends bytes, takes what the
/// socket wrote, ends its side with FIN or RST, or runs a script whenever something arrives
/// (an origin). `MemoryNetwork.run()` delivers the events epoll would.
///
/// Differences from the kernel, on purpose: the test's end keeps the bytes that arrived
/// before a reset (they are what the host wrote), and its writes are never short.
public final class MemoryEndpoint: StreamTransport {
    /// Where this end stands.
    enum Stage: Equatable {
        /// A connect is in flight; it completes with `error` (0, or ECONNREFUSED) on the
        /// socket's next writable event.
        case connecting(error: Int32)
        /// Established.
        case open
        /// The peer's RST arrived; the socket hears ECONNRESET.
        case reset
        /// This end closed.
        case closed
    }

    let link: MemoryLink
    /// Which flow this end writes to (it reads the other).
    let side: Int
    var stage: Stage
    /// The socket on this end, held as a loop holds a registered handler: until it closes.
    var handler: EventHandler?
    var interest: UInt32 = 0
    /// Runs when bytes or an end arrive at a scripted end (an origin).
    var script: ((MemoryEndpoint) -> Void)?
    /// What the script last saw (unread count and end), so it runs only on news.
    private var seen = (count: 0, end: MemoryFlow.End.open)
    /// The other end of the connection (gone counts as closed).
    weak var peer: MemoryEndpoint?

    init(link: MemoryLink, side: Int, stage: Stage) {
        self.link = link
        self.side = side
        self.stage = stage
    }

    /// The flow this end reads (read-only: takes go through `link` so as not to copy it).
    private var inbound: MemoryFlow { link.flows[1 - side] }

    // MARK: The test's end

    /// Sends `bytes` to the other end (never short; nothing after this end finished).
    public func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { link.flows[side].append($0) }
    }

    /// Sends the UTF-8 of `text`.
    public func send(_ text: String) {
        send(Array(text.utf8))
    }

    /// Takes everything that arrived (what the socket on the other end wrote).
    public func receive() -> [UInt8] {
        Array(link.flows[1 - side].take(upTo: Int.max))
    }

    /// How the other end ended its sending: still open, FIN or RST.
    public var peerEnd: MemoryEndpointEnd {
        switch inbound.end {
        case .open: .open
        case .finished: .finished
        case .reset: .reset
        }
    }

    /// Bytes this end sent that the other end has not read yet.
    public var inFlight: Int { link.flows[side].count }

    /// Whether this end has closed.
    public var isClosed: Bool { stage == .closed }

    /// Sends FIN after what was sent.
    public func finish() {
        shutdownWrite()
    }

    /// Sends RST and closes this end.
    public func reset() {
        close(reset: true)
    }

    /// Runs `body` whenever bytes or an end arrive here, until this end closes.
    public func onActivity(_ body: @escaping (MemoryEndpoint) -> Void) {
        script = body
    }

    // MARK: StreamTransport

    package func watch(_ handler: EventHandler, events: UInt32) {
        guard stage != .closed else { return }
        self.handler = handler
        interest = events
    }

    package func read(into buffer: UnsafeMutableRawBufferPointer) -> Sockets.ReadResult {
        switch stage {
        case .connecting: return .wouldBlock
        case .reset: return .failed(IOError("read", code: ECONNRESET))
        case .closed: return .failed(IOError("read", code: EBADF))
        case .open: break
        }
        if inbound.count > 0 {
            let taken = link.flows[1 - side].take(upTo: buffer.count)
            taken.withUnsafeBytes { buffer.copyMemory(from: $0) }
            return .bytes(taken.count)
        }
        switch inbound.end {
        case .open: return .wouldBlock
        case .finished: return .endOfFile
        case .reset: return .failed(IOError("read", code: ECONNRESET))
        }
    }

    package func write(_ bytes: UnsafeRawBufferPointer) -> Result<Int, IOError> {
        switch stage {
        case .connecting: return .success(0)
        case .reset: return .failure(IOError("write", code: ECONNRESET))
        case .closed: return .failure(IOError("write", code: EBADF))
        case .open: break
        }
        // A peer that closed answers data with RST: the writer sees EPIPE.
        if (peer?.stage ?? .closed) == .closed || link.flows[side].end != .open { return .failure(IOError("write", code: EPIPE)) }
        let count = min(bytes.count, max(0, link.capacity - link.flows[side].count))
        _ = link.flows[side].append(UnsafeRawBufferPointer(rebasing: bytes[0..<count]))
        return .success(count)
    }

    package func pendingError() -> Int32 {
        switch stage {
        case .connecting(let error):
            stage = error == 0 ? .open : .closed
            return error
        case .reset: return ECONNRESET
        case .open, .closed: return 0
        }
    }

    package func readableBytes() -> Int {
        inbound.count
    }

    package func peek() -> Sockets.ReadResult {
        if stage == .reset || inbound.end == .reset { return .failed(IOError("recv", code: ECONNRESET)) }
        if inbound.count > 0 { return .bytes(1) }
        return inbound.end == .finished ? .endOfFile : .wouldBlock
    }

    package func shutdownWrite() {
        link.flows[side].close(.finished)
    }

    package func close(reset: Bool) {
        guard stage != .closed else { return }
        // As in the kernel, closing with unread input sends RST, not FIN.
        link.flows[side].close(reset || inbound.count > 0 ? .reset : .finished)
        stage = .closed
        handler = nil
        script = nil
    }

    /// Teardown: a socket's end hears RST from its peer (its socket fails on the next
    /// delivery); any other end closes with RST.
    func failFromPeer() {
        guard handler != nil else {
            close(reset: true)
            return
        }
        link.flows[1 - side].close(.reset)
        peer?.stage = .closed
    }

        // MARK: Delivery

    /// Hands the socket (or the script) what is ready; false when nothing was.
    func deliver() -> Bool {
        if let handler {
            let events = readyEvents()
            guard events != 0 else { return false }
            if events & IOEvents.error != 0 { stage = .reset }
            handler.handleEvents(events)
            return true
        }
        guard let script, hasNews else { return false }
        script(self)
        seen = (inbound.count, inbound.end)
        return true
    }

    /// Whether `deliver()` would hand anything over.
    var hasNews: Bool {
        if handler != nil { return readyEvents() != 0 }
        return script != nil && stage == .open && (inbound.count, inbound.end) != seen
    }

    /// The epoll bits that are ready for the socket on this end.
    private func readyEvents() -> UInt32 {
        switch stage {
        case .connecting:
            return interest & IOEvents.writable
        case .open:
            if inbound.end == .reset { return IOEvents.error }
            var events: UInt32 = 0
            if interest & IOEvents.readable != 0 && (inbound.count > 0 || inbound.end == .finished) {
                events |= IOEvents.readable | (inbound.end == .finished ? IOEvents.readHangup : 0)
            }
            if interest & IOEvents.writable != 0 && link.flows[side].count < link.capacity {
                events |= IOEvents.writable
            }
            return events
        case .reset, .closed:
            return 0
        }
    }
}

/// How one end of an in-memory connection ended its sending.
public enum MemoryEndpointEnd: Sendable, Equatable {
    /// Still sending.
    case open
    /// FIN.
    case finished
    /// RST.
    case reset
}

extension MemoryEndpoint {
    /// Closes this end: FIN, or RST when input is left unread (as the kernel does).
    public func close() {
        close(reset: false)
    }
}
