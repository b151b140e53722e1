import FaultlineHTTP

/// What an exchange needs to know about its request and configuration, fixed when its
/// head arrives: plain values, so the machine never touches a snapshot or a socket.
struct ExchangeSetup {
    /// How the route started: proxied, or refused before any upstream is chosen.
    enum Start {
        /// To the upstream, shaped by the exchange's fault plan.
        case proxy
        /// Answered by Faultline once the request has been read.
        case refuse(status: Int, message: String)
    }

    /// The timeouts that apply while the exchange runs, in milliseconds.
    struct Timeouts: Equatable {
        var connectMs = 5_000
        var responseMs = 30_000
        var tunnelIdleMs = 300_000
        /// Inactivity of a request body.
        var clientIdleMs = 60_000
    }

    var start: Start
    var requestFraming = BodyFraming.none
    var isHeadRequest = false
    var upgradeRequested = false
    /// Whether the client's request allows another one after it.
    var clientKeepAlive = true
    var clientMinorVersion = 1
    /// Whether a refused request asked for `100-continue`: its client waits before sending
    /// the body, so the refusal is answered without it (RFC 9110 §10.1.1).
    var refusedExpectingContinue = false
    /// Whether sending the request twice has the effect of sending it once (RFC 9110 §9.2.2).
    var isIdempotent = true
    var timeouts = Timeouts()
    /// `max_request_body_bytes` (0: no limit).
    var maxRequestBodyBytes = 0
    /// The upstream's name, for messages.
    var upstreamName = ""
    /// `route/fault, …` when responses carry the fault marker header; nil otherwise.
    var faultMarker: String?

    /// The setup of a request with head `head`, before routing decides how it starts.
    /// Borrowed: the starter goes on using the head, so an owned parameter would copy it.
    init(start: Start, head: borrowing HTTPHead) {
        self.start = start
        requestFraming = BodyFraming.forwarding(request: head)
        isHeadRequest = head.method == "HEAD"
        upgradeRequested = head.isUpgrade
        clientKeepAlive = head.keepAlive && !head.isUpgrade
        clientMinorVersion = head.versionMinor
        switch head.method {
        case "GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE": isIdempotent = true
        default: isIdempotent = false
        }
    }

    /// A setup with defaults, for tests.
    init(start: Start) {
        self.start = start
    }
}
