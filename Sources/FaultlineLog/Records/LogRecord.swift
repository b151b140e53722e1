/// One log record: an exchange, or a pin, fault, TLS or error event. Fields that can
/// carry a secret (query, headers, bodies, error text, message, attributes) can only be
/// set through methods that take a `LogPolicy` and redact as they store, so no sink,
/// error or debug path ever sees the secret. Attribute names follow OpenTelemetry where
/// it has one (see `JSONLineEncoder`).
public struct LogRecord: Sendable {
    /// When the record was made (`time`).
    public var time: LogTimestamp
    /// What the record reports (`kind`).
    public var kind: LogRecordKind
    /// The exchange's id (`request.id`).
    public var requestID: String?
    /// The client's IP address (`client.address`).
    public var clientAddress: String?
    /// The client's port (`client.port`).
    public var clientPort: Int?
    /// The client side's HTTP version: `1.0`, `1.1` or `2` (`network.protocol.version`).
    public var protocolVersion: String?
    /// The client-side HTTP/2 stream id (`http2.stream_id`); nil on HTTP/1.
    public var http2StreamID: Int?
    /// The HTTP/2 error code the exchange's stream or connection ended with, and who sent
    /// it (`http2.error_code`, `http2.error_frame`, `http2.error_sender`); nil when none.
    public var http2Error: LogHTTP2Error?
    /// Request method (`http.request.method`).
    public var method: String?
    /// `http` or `https` (`url.scheme`).
    public var scheme: String?
    /// The requested host, without port (`server.address`).
    public var host: String?
    /// The requested port (`server.port`).
    public var serverPort: Int?
    /// Request path, capped (`url.path`).
    public internal(set) var path: String?
    /// Query string, redacted and capped (`url.query`).
    public internal(set) var query: String?
    /// Response status (`http.response.status_code`).
    public var statusCode: Int?
    /// Request body bytes (`http.request.body.size`).
    public var requestBodySize: Int?
    /// Response body bytes (`http.response.body.size`).
    public var responseBodySize: Int?
    /// Upstream connect time in ms (`faultline.duration.connect`).
    public var connectMs: Double?
    /// Upstream TLS handshake time in ms (`faultline.duration.tls`).
    public var tlsMs: Double?
    /// Time to the response's first byte in ms (`faultline.duration.first_byte`).
    public var firstByteMs: Double?
    /// Whole exchange in ms (`faultline.duration.total`).
    public var totalMs: Double?
    /// Upstream name (`faultline.upstream`).
    public var upstream: String?
    /// Route name (`faultline.route`).
    public var route: String?
    /// Names of the faults that fired, e.g. `search/status` (`faultline.fault`).
    public var faults: [String] = []
    /// The per-test session the exchange ran in (`faultline.session`).
    public var session: String?
    /// Whether the request named a session that does not exist or expired (`faultline.session_unknown`).
    public var sessionUnknown = false
    /// Pin verdict (`faultline.pin.result`).
    public var pinResult: PinResult?
    /// Error class, e.g. `upstream_connect` (`error.type`).
    public var errorType: String?
    /// Error text, redacted (`faultline.error`).
    public internal(set) var error: String?
    /// Event text for non-exchange records, redacted (`faultline.message`).
    public internal(set) var message: String?
    /// Extra attributes of pin, fault and TLS records, values redacted, each key once.
    public internal(set) var attributes: [LogAttribute] = []
    /// Logged request headers, redacted (`http.request.header.<name>`).
    public internal(set) var requestHeaders: [LogField] = []
    /// Logged response headers, redacted (`http.response.header.<name>`).
    public internal(set) var responseHeaders: [LogField] = []
    /// Header fields not logged because of the per-message cap (`faultline.headers.omitted`).
    public internal(set) var omittedHeaders = 0
    /// Logged request body, capped and redacted (`faultline.request.body`).
    public internal(set) var requestBody: String?
    /// Logged response body, capped and redacted (`faultline.response.body`).
    public internal(set) var responseBody: String?
    /// What was redacted, e.g. `request.header.authorization` (`faultline.redacted`).
    public internal(set) var redacted: [String] = []

    /// Starts a record of `kind` at `time` (now by default).
    public init(kind: LogRecordKind = .exchange, time: LogTimestamp = .now(), requestID: String? = nil) {
        self.kind = kind
        self.time = time
        self.requestID = requestID
    }
}
