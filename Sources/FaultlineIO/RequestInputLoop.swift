/// The input side of a server connection that answers requests one at a time (the admin
/// API, the demo origin): input that cannot be decoded yet (a request is being answered, or
/// the client is not reading its answers) is held, decoded in order when the owner
/// `resume()`s, and reading pauses while held input or unsent output is large.
///
/// A decoding pass may end a request whose answer is written at once, and that answer's end
/// asks to resume: the pass borrows the held bytes (`Held.lent`), so a nested resume only
/// queues behind them and requests stay in order. The proxy's own `DownstreamConnection`
/// keeps its loop (see docs/exchange-refactor.md).
public final class RequestInputLoop {
    /// Where the connection's input stands.
    public enum Stage: Equatable, Sendable {
        /// Reading and answering.
        case open
        /// The peer sent FIN: what is held or being answered completes, nothing more is read.
        case inputEnded
        /// Closing or closed: nothing more is read or decoded.
        case finished
    }

    /// The undecoded input: resting between passes, or lent to the running pass (bytes that
    /// arrive meanwhile wait in `arrived`, behind the lent ones).
    private enum Held {
        case resting([UInt8])
        case lent(arrived: [UInt8])
    }

    public private(set) var stage = Stage.open
    private var held = Held.resting([])
    private unowned let socket: StreamSocket
    private unowned let owner: RequestInputOwner
    private let maxHeld: Int
    private let outputHighWater: Int

    /// Reads for `owner` from `socket`; reading pauses past `maxHeld` undecoded bytes or
    /// `outputHighWater` unsent ones.
    public init(socket: StreamSocket, owner: RequestInputOwner, maxHeld: Int, outputHighWater: Int) {
        self.socket = socket
        self.owner = owner
        self.maxHeld = maxHeld
        self.outputHighWater = outputHighWater
    }

    /// Bytes held undecoded.
    public var heldCount: Int {
        switch held {
        case .resting(let bytes): bytes.count
        case .lent(let arrived): arrived.count
        }
    }

    /// Bytes arrived (the socket's `didRead`): decoded now if nothing waits before them,
    /// else held behind what does.
    public func received(_ bytes: UnsafeRawBufferPointer) {
        guard stage != .finished else { return }
        switch held {
        case .resting(let waiting) where waiting.isEmpty:
            held = .lent(arrived: [])
            let used = owner.decode(bytes)
            settle(rest: used < bytes.count ? Array(bytes[used...]) : [])
        case .resting(var waiting):
            held = .resting([])
            waiting.append(contentsOf: bytes)
            held = .resting(waiting)
            resume()
            return
        case .lent(var arrived):
            held = .lent(arrived: [])
            arrived.append(contentsOf: bytes)
            held = .lent(arrived: arrived)
            return
        }
        afterInput()
    }

    /// Decodes held input, if the owner can decode now (an answer finished, output drained).
    public func resume() {
        guard stage != .finished, case .resting(let waiting) = held else { return }
        if !waiting.isEmpty && owner.canDecode {
            held = .lent(arrived: [])
            let used = waiting.withUnsafeBytes { owner.decode($0) }
            settle(rest: used < waiting.count ? Array(waiting[used...]) : [])
        }
        afterInput()
    }

    /// The peer sent FIN.
    public func peerEnded() {
        if stage == .open { stage = .inputEnded }
        afterInput()
    }

    /// The connection is closing: nothing more is read or decoded; held input is dropped.
    public func finish() {
        stage = .finished
        if case .resting = held { held = .resting([]) }
    }

    /// Reads only while the peer may still send and held input and unsent output are small.
    public func updateReading() {
        guard stage != .finished, !socket.isClosed else { return }
        socket.setReading(stage == .open && heldCount < maxHeld && socket.pendingWriteBytes <= outputHighWater)
    }

    /// A pass ended: what it left goes before what arrived during it; then it goes on if
    /// the owner can decode more.
    private func settle(rest: [UInt8]) {
        guard case .lent(let arrived) = held else { return }
        held = .resting(rest.isEmpty ? arrived : rest + arrived)
        if stage == .finished {
            held = .resting([])
        } else if !arrived.isEmpty && owner.canDecode {
            resume()
        }
    }

    /// After input was handled: tell the owner when the peer is gone and nothing is held,
    /// otherwise read only while output and held input are small.
    private func afterInput() {
        guard stage != .finished, case .resting(let waiting) = held else { return }
        if stage == .inputEnded {
            if waiting.isEmpty { owner.inputEnded() }
            return
        }
        updateReading()
    }
}
