import FaultlineHTTP
import FaultlineLog

/// What one exchange's log record will say, gathered as the exchange runs and turned into a
/// redacted `LogRecord` once, when it ends (`record(policy:now:)`). It holds the raw heads
/// until then, never a rendered string, so no text with a secret in it exists before
/// redaction. Lives on its connection's loop.
final class ExchangeTrace {
    /// Wall-clock start, for the record's `time`.
    let time = LogTimestamp.now()
    /// Monotonic start (ns).
    let start: UInt64
    /// The id logged and forwarded as X-Request-ID.
    let requestID: String
    /// The request head; nil when the request could not be parsed.
    let request: HTTPHead?
    /// "http" or "https" (the listener's).
    let scheme: StaticString
    /// The log of the snapshot the exchange started on: its policy redacts the record.
    let log: TrafficLog
    /// The client side's HTTP version; nil when an HTTP/1 request could not be parsed.
    let clientProtocol: ClientProtocolVersion?
    /// The client-side HTTP/2 stream id the exchange runs on; nil on HTTP/1.
    var http2StreamID: Int32?
    /// The first HTTP/2 error code that ended the stream or its connection, and who sent
    /// it; set through `noteHTTP2Error(_:)`.
    private(set) var http2Error: LogHTTP2Error?

    /// Whether the log or the HAR capture wants the record (else only journals do): the
    /// request id is then neither forwarded nor answered, as before journals existed.
    let logged: Bool
    /// The session the exchange runs in; nil outside sessions.
    var session: Session?
    /// Whether the request named a session that does not exist (or expired).
    var sessionUnknown = false
    /// The scenario phase the request met: the one whose rule took it, else the one in
    /// effect for its session (or globally); nil when no scenario ran.
    var scenarioPhase: ActivePhase?
    /// 1-based index of the request on its client connection (HTTP/2: stream order).
    var attempt = 0
    /// The client connection's per-process number.
    var connection = 0

    var route: String?
    var upstream: String?
    var faults: [String] = []
    var status: Int?
    /// The response head from the upstream (after any rewrite fault).
    var responseHead: HTTPHead?
    /// Headers of a response Faultline wrote itself (errors, status faults).
    var localHeaders: [(name: String, value: String)] = []
    var requestBodyBytes = 0
    var responseBodyBytes = 0
    /// Monotonic times (ns); 0 when it did not happen.
    var connectStart: UInt64 = 0
    var tcpConnected: UInt64 = 0
    var connected: UInt64 = 0
    var firstByte: UInt64 = 0
    /// Whether the upstream connection came from the pool (no connect, no TLS).
    var reusedConnection = false
    var usedTLS = false
    var pinResult: PinResult?
    var error: ExchangeError?
    var errorMessage: String?

    /// Captured body prefixes, when the policy logs bodies of the message's type.
    var requestBody: BodyCapture?
    var responseBody: BodyCapture?

    /// `clientProtocol` is the HTTP/2 side's to give; HTTP/1 leaves it nil and the
    /// version comes from `request`'s head.
    init(start: UInt64, requestID: String, request: HTTPHead?, scheme: StaticString, log: TrafficLog,
         clientProtocol: ClientProtocolVersion? = nil) {
        self.log = log
        logged = log.isEnabled
        self.clientProtocol = clientProtocol ?? request.map(ClientProtocolVersion.init(http1Head:))
        self.start = start
        self.requestID = requestID
        self.request = request
        self.scheme = scheme
    }

    /// The request id to forward and answer with: only when the log or HAR keeps the record.
    var visibleRequestID: String? {
        logged ? requestID : nil
    }

    /// Records an error unless an earlier, more specific one is already set.
    func fail(_ error: ExchangeError, _ message: String) {
        guard self.error == nil else { return }
        self.error = error
        errorMessage = message
    }

    /// Records an RST_STREAM or GOAWAY code unless one is already set: the first frame is
    /// the cause (a GOAWAY after a reset, or the client's RST_STREAM answering ours, is not).
    func noteHTTP2Error(_ error: LogHTTP2Error) {
        guard http2Error == nil else { return }
        http2Error = error
    }
}
