/// Where a `StreamSocket` is in its life, with the data each stage needs. The socket changes
/// it only through the mutating methods here, so every transition is in this file and a
/// combination that cannot happen (reading input while connecting, lingering after close)
/// cannot be written. The paths:
///
/// - accepted, plain: `open` → `inputClosed` → `lingering` → `closed`
/// - accepted, secure: `handshaking` → `open` → …
/// - connecting: `connecting` → `open` → …, or `connectingSecure` → `handshaking` → `open` → …
/// - a graceful close while a plain connect is in flight: `connecting(closingTimer:)` → `lingering`
///
/// Any stage may go straight to `closed` (close, reset, failure); `inputClosed` may be skipped.
enum StreamSocketLifecycle {
    /// A plain TCP connect is in flight; bytes written meanwhile wait in the outbound queue.
    /// `closingTimer` is set once a graceful close was asked for: the queue still goes out
    /// when the connect completes, then FIN, bounded by that timer.
    case connecting(closingTimer: TimerID?)
    /// A TCP connect is in flight and a handshake follows; plaintext written meanwhile waits
    /// here, unencrypted, until the channel is ready.
    case connectingSecure(pending: [UInt8])
    /// The handshake is running (either side); plaintext written meanwhile waits here.
    case handshaking(pending: [UInt8])
    /// Established: both directions flow.
    case open
    /// The peer finished sending (end of file, or close_notify); writes still flow.
    case inputClosed
    /// Closing gracefully: queued bytes go out, then FIN; input is read and dropped until the
    /// peer closes or `timer` ends it, so unread input cannot turn the close into an RST.
    case lingering(timer: TimerID)
    /// The descriptor is closed. `duringSetup` when it closed while connecting or
    /// handshaking: a connect or handshake that failed (the owner classifies the error so).
    case closed(duringSetup: Bool)

    /// The first stage of a socket that connects or was accepted, with or without a secure
    /// channel.
    init(connecting: Bool, secure: Bool) {
        switch (connecting, secure) {
        case (true, false): self = .connecting(closingTimer: nil)
        case (true, true): self = .connectingSecure(pending: [])
        case (false, true): self = .handshaking(pending: [])
        case (false, false): self = .open
        }
    }

    // MARK: Questions

    var isClosed: Bool {
        if case .closed = self { return true }
        return false
    }

    /// Whether the TCP connect is still in flight: no reads, and writes are queued.
    var isTCPConnecting: Bool {
        switch self {
        case .connecting, .connectingSecure: true
        case .handshaking, .open, .inputClosed, .lingering, .closed: false
        }
    }

    /// Whether application bytes are held back because the secure channel is not ready.
    var holdsPlaintext: Bool {
        switch self {
        case .connectingSecure, .handshaking: true
        case .connecting, .open, .inputClosed, .lingering, .closed: false
        }
    }

    /// Whether the connection is being set up: the connect or the handshake is running.
    var isSettingUp: Bool {
        switch self {
        case .connecting, .connectingSecure, .handshaking: true
        case .open, .inputClosed, .lingering, .closed: false
        }
    }

    /// Whether a connecting (`client`) socket has not finished setting up, or closed before
    /// it did; an accepting socket is never connecting.
    func isConnecting(client: Bool) -> Bool {
        switch self {
        case .connecting, .connectingSecure: true
        case .handshaking, .closed(duringSetup: true): client
        case .open, .inputClosed, .lingering, .closed(duringSetup: false): false
        }
    }

    /// Whether a graceful close is under way.
    var isClosing: Bool {
        switch self {
        case .lingering, .connecting(closingTimer: _?): true
        case .connecting(closingTimer: nil), .connectingSecure, .handshaking, .open, .inputClosed, .closed: false
        }
    }

    /// Whether the peer has finished sending.
    var sawEndOfInput: Bool {
        if case .inputClosed = self { return true }
        return false
    }

    /// Plaintext bytes waiting for the secure channel.
    var pendingPlaintextCount: Int {
        switch self {
        case .connectingSecure(let pending), .handshaking(let pending): pending.count
        case .connecting, .open, .inputClosed, .lingering, .closed: 0
        }
    }

    /// Whether the socket reads as far as its owner can tell: `wanted` (the owner's
    /// backpressure choice) while setting up or open; never after end of input; always while
    /// lingering (the input is dropped).
    func isReading(wanted: Bool) -> Bool {
        switch self {
        case .connecting, .connectingSecure, .handshaking, .open: wanted
        case .lingering: true
        case .inputClosed, .closed: false
        }
    }

    /// Whether input is read from the descriptor now: as `isReading`, and also during a
    /// handshake whatever the owner wants (the handshake needs the peer's records).
    func readsInput(wanted: Bool) -> Bool {
        switch self {
        case .handshaking, .lingering: true
        case .open: wanted
        case .connecting, .connectingSecure, .inputClosed, .closed: false
        }
    }

    // MARK: Transitions

    /// What the socket does once its TCP connect completed.
    enum AfterConnect {
        /// Start the handshake (the stage is now `handshaking`).
        case startHandshake
        /// Tell the delegate it is connected (the stage is now `open`).
        case established
        /// A graceful close was asked for while connecting: send the queue, then FIN.
        case drain
        /// Nothing: the socket was not connecting.
        case ignored
    }

    /// The TCP connect completed.
    mutating func tcpConnected() -> AfterConnect {
        switch self {
        case .connecting(closingTimer: nil):
            self = .open
            return .established
        case .connecting(closingTimer: let timer?):
            self = .lingering(timer: timer)
            return .drain
        case .connectingSecure(let pending):
            self = .handshaking(pending: pending)
            return .startHandshake
        case .handshaking, .open, .inputClosed, .lingering, .closed:
            return .ignored
        }
    }

    /// The handshake completed: the channel is open. Returns the plaintext written meanwhile,
    /// to be sent now; nil if no handshake was running.
    mutating func handshakeCompleted() -> [UInt8]? {
        guard case .handshaking(let pending) = self else { return nil }
        self = .open
        return pending
    }

    /// Holds `bytes` until the secure channel is ready; false (nothing held) when it is.
    mutating func holdPlaintext(_ bytes: UnsafeRawBufferPointer) -> Bool {
        switch self {
        case .connectingSecure(var pending):
            // Dropping the stage's reference first keeps the append from copying the buffer.
            self = .open
            pending.append(contentsOf: bytes)
            self = .connectingSecure(pending: pending)
            return true
        case .handshaking(var pending):
            self = .open
            pending.append(contentsOf: bytes)
            self = .handshaking(pending: pending)
            return true
        case .connecting, .open, .inputClosed, .lingering, .closed:
            return false
        }
    }

    /// What the socket does when the peer's input ends.
    enum AfterEndOfInput {
        /// Tell the delegate (the stage is now `inputClosed`).
        case report
        /// Close now: a lingering socket has waited for exactly this.
        case close
        /// Fail: the peer left before the secure channel was ready.
        case abortHandshake
        /// Nothing (already closed or already ended).
        case ignored
    }

    /// The peer finished sending.
    mutating func endOfInput() -> AfterEndOfInput {
        switch self {
        case .open:
            self = .inputClosed
            return .report
        case .lingering:
            return .close
        case .connectingSecure, .handshaking:
            return .abortHandshake
        case .connecting, .inputClosed, .closed:
            return .ignored
        }
    }

    /// A graceful close begins: queued bytes still go out (after the connect, if it is in
    /// flight), bounded by `timer`. Plaintext held for a handshake is dropped. False (nothing
    /// changed) if the socket is already closing or closed, or waits for a secure connect.
    mutating func startClosing(timer: TimerID) -> Bool {
        switch self {
        case .connecting(closingTimer: nil):
            self = .connecting(closingTimer: timer)
            return true
        case .handshaking, .open, .inputClosed:
            self = .lingering(timer: timer)
            return true
        case .connecting(closingTimer: _?), .connectingSecure, .lingering, .closed:
            return false
        }
    }

    /// Closes; returns the stage it left, so the socket can cancel its timer or skip the
    /// goodbye a graceful close already sent.
    mutating func close() -> StreamSocketLifecycle {
        let previous = self
        if !isClosed { self = .closed(duringSetup: isSettingUp) }
        return previous
    }

    /// The grace timer of a graceful close, if one runs.
    var closingTimer: TimerID? {
        switch self {
        case .lingering(let timer), .connecting(closingTimer: let timer?): timer
        case .connecting(closingTimer: nil), .connectingSecure, .handshaking, .open, .inputClosed, .closed: nil
        }
    }
}
