import FaultlineLog

/// Every change of an upstream connection's stage. Each method either moves to the next
/// stage and says what the connection must do, or leaves the stage alone when the event is
/// impossible there (refused with false, `nil` or `.ignored`).
extension UpstreamConnectionLifecycle {
    /// An idle connection is taken from the pool for `owner`'s exchange. Refused unless idle.
    mutating func attach(owner: UpstreamLegOwner, bytesSent: UInt64) -> Bool {
        guard case .idle(_, _, let pin) = self else { return false }
        self = .serving(owner: owner, exchange: UpstreamExchangeProgress(bytesSentBefore: bytesSent, lease: .pooled),
                        pin: pin)
        return true
    }

    /// The connect, handshake and pin check passed. Returns the owner to tell; nil (nothing
    /// changed) unless connecting.
    mutating func connected(pin: PinResult?) -> UpstreamLegOwner? {
        guard case .connecting(let owner, let exchange) = self else { return nil }
        self = .serving(owner: owner, exchange: exchange, pin: pin)
        return owner
    }

    /// The owner handed the last byte of its request to the socket.
    mutating func requestWritten() {
        switch self {
        case .connecting(let owner, var exchange):
            exchange.request = .sent
            self = .connecting(owner: owner, exchange: exchange)
        case .serving(let owner, var exchange, let pin):
            exchange.request = .sent
            self = .serving(owner: owner, exchange: exchange, pin: pin)
        case .idle, .tunnel, .closed:
            break
        }
    }

    /// What kind of response head arrived.
    enum Head {
        /// 1xx other than 101: another head follows.
        case interim
        /// 101: the connection becomes a tunnel.
        case switchingProtocols
        /// The final head; `keepAlive` when it allows another request.
        case final(keepAlive: Bool)
    }

    /// A response head arrived. False (nothing changed) unless a head was awaited.
    mutating func headArrived(_ head: Head) -> Bool {
        guard case .serving(let owner, var exchange, let pin) = self, case .awaitingHead = exchange.response else {
            return false
        }
        switch head {
        case .interim:
            exchange.response = .interim
        case .switchingProtocols:
            self = .tunnel(owner: owner)
            return true
        case .final(let keepAlive):
            exchange.response = .receiving(keepAlive: keepAlive)
        }
        self = .serving(owner: owner, exchange: exchange, pin: pin)
        return true
    }

    /// What the connection does when the decoder completes a message.
    enum MessageEnd {
        /// An interim response ended: resume decoding for the final one.
        case interim
        /// The final response ended: tell `owner`.
        case response(UpstreamLegOwner)
        /// No message was in progress (tunnel, idle, closed).
        case ignored
    }

    /// The decoder completed a message. `reusable` is false when the connection cannot be
    /// trusted after it: bytes followed it, or the upstream's close delimited it.
    mutating func messageEnded(reusable: Bool) -> MessageEnd {
        guard case .serving(let owner, var exchange, let pin) = self else { return .ignored }
        switch exchange.response {
        case .interim:
            exchange.response = .awaitingHead
            self = .serving(owner: owner, exchange: exchange, pin: pin)
            return .interim
        case .receiving(let keepAlive):
            exchange.response = .complete(keepAlive: keepAlive && reusable)
            self = .serving(owner: owner, exchange: exchange, pin: pin)
            return .response(owner)
        case .awaitingHead, .complete:
            return .ignored
        }
    }

    /// The exchange ended cleanly and the pool keeps the connection until `deadline`.
    /// Refused (false, nothing changed) unless the request was written to its end and a
    /// complete keep-alive response was read: nothing is ever parked mid-message.
    mutating func park(in pool: UpstreamPool, until deadline: UInt64) -> Bool {
        guard case .serving(_, let exchange, let pin) = self, exchange.endedCleanly else { return false }
        self = .idle(pool: pool, deadline: deadline, pin: pin)
        return true
    }

    /// What the connection does once it closed.
    enum AfterClose {
        /// It was attached: `owner` hears of a failure (a close the owner asked for needs
        /// no word back).
        case tellOwner(UpstreamLegOwner)
        /// It was idle: it leaves `pool`.
        case leavePool(UpstreamPool)
        /// It had already closed.
        case ignored
    }

    /// Closes for `reason`; from here every transition is refused.
    mutating func close(_ reason: UpstreamCloseReason) -> AfterClose {
        switch self {
        case .connecting(let owner, let exchange), .serving(let owner, let exchange, _):
            self = .closed(reason, last: exchange)
            return .tellOwner(owner)
        case .tunnel(let owner):
            self = .closed(reason, last: nil)
            return .tellOwner(owner)
        case .idle(let pool, _, _):
            self = .closed(reason, last: nil)
            return .leavePool(pool)
        case .closed:
            return .ignored
        }
    }
}
