/// One log record: an exchange, or a pin, fault, TLS or error event. Fields that can
/// carry a secret (query, headers, bodies, error text, message, attributes) can only be
/// set through methods that take a `LogPolicy` and redact as they store, so no sink,
/// error or debug path ever sees the secret. Attribute names follow OpenTelemetry where
/// it has one (see `JSONLineEncoder`).
public struct LogRecord: Sendable {
    /// The fields, shared between copies until one of them changes (copy on write): a
    /// finished record goes to the log line, the HAR capture and the dashboard feed, and a
    /// copy is then one retain instead of one per field.
    private var storage: Storage

    private final class Storage: @unchecked Sendable {
        // Mutated only through a LogRecord that holds the only reference (`makeUnique`).
        var fields: Fields

        init(_ fields: Fields) {
            self.fields = fields
        }
    }

    private struct Fields {
        var time: LogTimestamp
        var kind: LogRecordKind
        var requestID: String?
        var clientAddress: String?
        var clientPort: Int?
        var protocolVersion: String?
        var http2StreamID: Int?
        var http2Error: LogHTTP2Error?
        var method: String?
        var scheme: String?
        var host: String?
        var serverPort: Int?
        var path: String?
        var query: String?
        var statusCode: Int?
        var requestBodySize: Int?
        var responseBodySize: Int?
        var connectMs: Double?
        var tlsMs: Double?
        var firstByteMs: Double?
        var totalMs: Double?
        var upstream: String?
        var route: String?
        var faults: [String] = []
        var session: String?
        var sessionUnknown: Bool = false
        var pinResult: PinResult?
        var errorType: String?
        var error: String?
        var message: String?
        var attributes: [LogAttribute] = []
        var requestHeaders: [LogField] = []
        var responseHeaders: [LogField] = []
        var omittedHeaders: Int = 0
        var requestBody: String?
        var responseBody: String?
        var redacted: [String] = []
    }

    /// Gives this record storage of its own before a change.
    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.fields) }
    }

    /// When the record was made (`time`).
    public var time: LogTimestamp {
        get { storage.fields.time }
        _modify { makeUnique(); yield &storage.fields.time }
    }
    /// What the record reports (`kind`).
    public var kind: LogRecordKind {
        get { storage.fields.kind }
        _modify { makeUnique(); yield &storage.fields.kind }
    }
    /// The exchange's id (`request.id`).
    public var requestID: String? {
        get { storage.fields.requestID }
        _modify { makeUnique(); yield &storage.fields.requestID }
    }
    /// The client's IP address (`client.address`).
    public var clientAddress: String? {
        get { storage.fields.clientAddress }
        _modify { makeUnique(); yield &storage.fields.clientAddress }
    }
    /// The client's port (`client.port`).
    public var clientPort: Int? {
        get { storage.fields.clientPort }
        _modify { makeUnique(); yield &storage.fields.clientPort }
    }
    /// The client side's HTTP version: `1.0`, `1.1` or `2` (`network.protocol.version`).
    public var protocolVersion: String? {
        get { storage.fields.protocolVersion }
        _modify { makeUnique(); yield &storage.fields.protocolVersion }
    }
    /// The client-side HTTP/2 stream id (`http2.stream_id`); nil on HTTP/1.
    public var http2StreamID: Int? {
        get { storage.fields.http2StreamID }
        _modify { makeUnique(); yield &storage.fields.http2StreamID }
    }
    /// The HTTP/2 error code the exchange's stream or connection ended with, and who sent
    /// it (`http2.error_code`, `http2.error_frame`, `http2.error_sender`); nil when none.
    public var http2Error: LogHTTP2Error? {
        get { storage.fields.http2Error }
        _modify { makeUnique(); yield &storage.fields.http2Error }
    }
    /// Request method (`http.request.method`).
    public var method: String? {
        get { storage.fields.method }
        _modify { makeUnique(); yield &storage.fields.method }
    }
    /// `http` or `https` (`url.scheme`).
    public var scheme: String? {
        get { storage.fields.scheme }
        _modify { makeUnique(); yield &storage.fields.scheme }
    }
    /// The requested host, without port (`server.address`).
    public var host: String? {
        get { storage.fields.host }
        _modify { makeUnique(); yield &storage.fields.host }
    }
    /// The requested port (`server.port`).
    public var serverPort: Int? {
        get { storage.fields.serverPort }
        _modify { makeUnique(); yield &storage.fields.serverPort }
    }
    /// Request path, capped (`url.path`).
    public internal(set) var path: String? {
        get { storage.fields.path }
        _modify { makeUnique(); yield &storage.fields.path }
    }
    /// Query string, redacted and capped (`url.query`).
    public internal(set) var query: String? {
        get { storage.fields.query }
        _modify { makeUnique(); yield &storage.fields.query }
    }
    /// Response status (`http.response.status_code`).
    public var statusCode: Int? {
        get { storage.fields.statusCode }
        _modify { makeUnique(); yield &storage.fields.statusCode }
    }
    /// Request body bytes (`http.request.body.size`).
    public var requestBodySize: Int? {
        get { storage.fields.requestBodySize }
        _modify { makeUnique(); yield &storage.fields.requestBodySize }
    }
    /// Response body bytes (`http.response.body.size`).
    public var responseBodySize: Int? {
        get { storage.fields.responseBodySize }
        _modify { makeUnique(); yield &storage.fields.responseBodySize }
    }
    /// Upstream connect time in ms (`faultline.duration.connect`).
    public var connectMs: Double? {
        get { storage.fields.connectMs }
        _modify { makeUnique(); yield &storage.fields.connectMs }
    }
    /// Upstream TLS handshake time in ms (`faultline.duration.tls`).
    public var tlsMs: Double? {
        get { storage.fields.tlsMs }
        _modify { makeUnique(); yield &storage.fields.tlsMs }
    }
    /// Time to the response's first byte in ms (`faultline.duration.first_byte`).
    public var firstByteMs: Double? {
        get { storage.fields.firstByteMs }
        _modify { makeUnique(); yield &storage.fields.firstByteMs }
    }
    /// Whole exchange in ms (`faultline.duration.total`).
    public var totalMs: Double? {
        get { storage.fields.totalMs }
        _modify { makeUnique(); yield &storage.fields.totalMs }
    }
    /// Upstream name (`faultline.upstream`).
    public var upstream: String? {
        get { storage.fields.upstream }
        _modify { makeUnique(); yield &storage.fields.upstream }
    }
    /// Route name (`faultline.route`).
    public var route: String? {
        get { storage.fields.route }
        _modify { makeUnique(); yield &storage.fields.route }
    }
    /// Names of the faults that fired, e.g. `search/status` (`faultline.fault`).
    public var faults: [String] {
        get { storage.fields.faults }
        _modify { makeUnique(); yield &storage.fields.faults }
    }
    /// The per-test session the exchange ran in (`faultline.session`).
    public var session: String? {
        get { storage.fields.session }
        _modify { makeUnique(); yield &storage.fields.session }
    }
    /// Whether the request named a session that does not exist or expired (`faultline.session_unknown`).
    public var sessionUnknown: Bool {
        get { storage.fields.sessionUnknown }
        _modify { makeUnique(); yield &storage.fields.sessionUnknown }
    }
    /// Pin verdict (`faultline.pin.result`).
    public var pinResult: PinResult? {
        get { storage.fields.pinResult }
        _modify { makeUnique(); yield &storage.fields.pinResult }
    }
    /// Error class, e.g. `upstream_connect` (`error.type`).
    public var errorType: String? {
        get { storage.fields.errorType }
        _modify { makeUnique(); yield &storage.fields.errorType }
    }
    /// Error text, redacted (`faultline.error`).
    public internal(set) var error: String? {
        get { storage.fields.error }
        _modify { makeUnique(); yield &storage.fields.error }
    }
    /// Event text for non-exchange records, redacted (`faultline.message`).
    public internal(set) var message: String? {
        get { storage.fields.message }
        _modify { makeUnique(); yield &storage.fields.message }
    }
    /// Extra attributes of pin, fault and TLS records, values redacted, each key once.
    public internal(set) var attributes: [LogAttribute] {
        get { storage.fields.attributes }
        _modify { makeUnique(); yield &storage.fields.attributes }
    }
    /// Logged request headers, redacted (`http.request.header.<name>`).
    public internal(set) var requestHeaders: [LogField] {
        get { storage.fields.requestHeaders }
        _modify { makeUnique(); yield &storage.fields.requestHeaders }
    }
    /// Logged response headers, redacted (`http.response.header.<name>`).
    public internal(set) var responseHeaders: [LogField] {
        get { storage.fields.responseHeaders }
        _modify { makeUnique(); yield &storage.fields.responseHeaders }
    }
    /// Header fields not logged because of the per-message cap (`faultline.headers.omitted`).
    public internal(set) var omittedHeaders: Int {
        get { storage.fields.omittedHeaders }
        _modify { makeUnique(); yield &storage.fields.omittedHeaders }
    }
    /// Logged request body, capped and redacted (`faultline.request.body`).
    public internal(set) var requestBody: String? {
        get { storage.fields.requestBody }
        _modify { makeUnique(); yield &storage.fields.requestBody }
    }
    /// Logged response body, capped and redacted (`faultline.response.body`).
    public internal(set) var responseBody: String? {
        get { storage.fields.responseBody }
        _modify { makeUnique(); yield &storage.fields.responseBody }
    }
    /// What was redacted, e.g. `request.header.authorization` (`faultline.redacted`).
    public internal(set) var redacted: [String] {
        get { storage.fields.redacted }
        _modify { makeUnique(); yield &storage.fields.redacted }
    }

    /// Starts a record of `kind` at `time` (now by default).
    public init(kind: LogRecordKind = .exchange, time: LogTimestamp = .now(), requestID: String? = nil) {
        storage = Storage(Fields(time: time, kind: kind, requestID: requestID))
    }
}
