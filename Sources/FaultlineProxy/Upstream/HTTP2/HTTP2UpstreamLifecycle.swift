import FaultlineLog

/// Where an HTTP/2 upstream connection is in its life. Streams are opened only while
/// `ready`; new exchanges are given the connection while `connecting`, `awaitingSettings`
/// or `ready` (they wait for it), never once it is `goingAway` or `closed`.
enum HTTP2UpstreamLifecycle {
    /// The TCP connect and TLS handshake are running; nothing has been written.
    case connecting
    /// Connected, pins and ALPN checked (`pin`: the verdict, nil without pins), preface and
    /// SETTINGS sent: the peer's SETTINGS (its concurrency limit) come first.
    case awaitingSettings(pin: PinResult?)
    /// Streams are opened as exchanges come, within the peer's limit.
    case ready(pin: PinResult?)
    /// No new streams: the peer sent GOAWAY (`lastStreamID`: streams above it were not
    /// processed), or Faultline retires the connection (reload, drain, idle; `lastStreamID`
    /// nil). It closes once its last stream ends.
    case goingAway(lastStreamID: Int32?, pin: PinResult?)
    /// Closed for good.
    case closed

    /// Whether new exchanges may be given this connection.
    var acceptsStreams: Bool {
        switch self {
        case .connecting, .awaitingSettings, .ready: true
        case .goingAway, .closed: false
        }
    }

    /// Whether the connection is not ready for requests yet.
    var isConnecting: Bool {
        switch self {
        case .connecting, .awaitingSettings: true
        case .ready, .goingAway, .closed: false
        }
    }

    /// Whether frames may be written (the connection is up and was not closed).
    var mayWrite: Bool {
        switch self {
        case .awaitingSettings, .ready, .goingAway: true
        case .connecting, .closed: false
        }
    }

    /// The handshake's pin verdict, once connected.
    var pin: PinResult? {
        switch self {
        case .awaitingSettings(let pin), .ready(let pin), .goingAway(_, let pin): pin
        case .connecting, .closed: nil
        }
    }
}
