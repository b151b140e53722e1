import FaultlineIO
import FaultlineLog

/// Where an `UpstreamConnection` is in its life, with the data each stage needs. The
/// connection changes it only through the mutating methods here, so every transition is in
/// this file and an impossible combination (an owner while idle in the pool, a pin verdict
/// before the handshake, reuse after a failure) cannot be written. The paths:
///
/// - new: `connecting` → `serving` (the connect, handshake and pin check passed)
/// - reuse: `serving` → `idle` (only after a clean exchange) → `serving` → …
/// - upgrade: `serving` → `tunnel` (a 101 head)
///
/// Any stage may go to `closed`, which is final. Modelled on `StreamSocketLifecycle`.
enum UpstreamConnectionLifecycle {
    /// The TCP connect, TLS handshake or pin check is running for the first exchange, whose
    /// request is already being queued.
    case connecting(owner: UpstreamLegOwner, exchange: UpstreamExchangeProgress)
    /// Connected and carrying one exchange. `pin` is the handshake's pin verdict (nil
    /// without pins); pooled reuses carry it, since the chain was checked once.
    case serving(owner: UpstreamLegOwner, exchange: UpstreamExchangeProgress, pin: PinResult?)
    /// In `pool`, attached to no exchange, until `deadline` (monotonic ns).
    case idle(pool: UpstreamPool, deadline: UInt64, pin: PinResult?)
    /// After a 101, a byte relay for `owner`: never reusable.
    case tunnel(owner: UpstreamLegOwner)
    /// Closed, for good. `last` is the exchange it carried when it closed, if any, so a
    /// retry can still ask what reached the upstream.
    case closed(UpstreamCloseReason, last: UpstreamExchangeProgress?)

    /// A new connection, made for `owner`'s exchange.
    init(connectingFor owner: UpstreamLegOwner, bytesSent: UInt64) {
        self = .connecting(owner: owner, exchange: UpstreamExchangeProgress(bytesSentBefore: bytesSent, lease: .fresh))
    }

    // MARK: Questions

    /// The exchange the connection serves or tunnels for; nil while idle or closed.
    var owner: UpstreamLegOwner? {
        switch self {
        case .connecting(let owner, _), .serving(let owner, _, _), .tunnel(let owner): owner
        case .idle, .closed: nil
        }
    }

    /// The progress of the current exchange, or of the last one if it closed while serving.
    var exchange: UpstreamExchangeProgress? {
        switch self {
        case .connecting(_, let exchange), .serving(_, let exchange, _): exchange
        case .closed(_, let last): last
        case .idle, .tunnel: nil
        }
    }

    /// Whether the last exchange ended so that the connection may carry another (the socket
    /// must also be open with nothing queued; the connection checks that).
    var isReusable: Bool {
        guard case .serving(_, let exchange, _) = self else { return false }
        return exchange.endedCleanly
    }

    /// Whether the connect, handshake or pin check is still running.
    var isConnecting: Bool {
        if case .connecting = self { return true }
        return false
    }

    var isTunnel: Bool {
        if case .tunnel = self { return true }
        return false
    }

    var isClosed: Bool {
        if case .closed = self { return true }
        return false
    }

    /// The handshake's pin verdict, known once connected.
    var pinResult: PinResult? {
        switch self {
        case .serving(_, _, let pin), .idle(_, _, let pin): pin
        case .connecting, .tunnel, .closed: nil
        }
    }

    /// When an idle connection must leave the pool; nil unless idle.
    var idleDeadline: UInt64? {
        if case .idle(_, let deadline, _) = self { return deadline }
        return nil
    }

    /// How a failure of the socket is reported: while connecting it is the connect's (or,
    /// with a TLS detail, the handshake's); afterwards an I/O failure.
    func failure(for error: IOError) -> UpstreamFailure {
        guard isConnecting else { return .io(error) }
        return error.detail != nil ? .handshake(error) : .connect(error)
    }
}
