/// One log record: an exchange, or a pin, fault, TLS or error event. Fields that can
/// carry a secret (query, headers, bodies, error text, message, attributes) can only be
/// set through methods that take a `LogPolicy` and redact as they store, so no sink,
/// error or debug path ever sees the secret. Attribute names follow OpenTelemetry where
/// it has one (see `JSONLineEncoder`).
public struct LogRecord: Sendable {
    /// The fields, shared between copies until one of them changes (copy on write): a
    /// finished record goes to the log line, the HAR capture and the dashboard feed, and a
    /// copy is then one retain instead of one per field.
    @usableFromInline var storage: Storage

    @usableFromInline final class Storage: @unchecked Sendable {
        // Mutated only through a LogRecord that holds the only reference (`makeUnique`).
        @usableFromInline var fields: Fields

        @usableFromInline init(_ fields: Fields) {
            self.fields = fields
        }
    }

    @usableFromInline struct Fields {
        @usableFromInline var time: LogTimestamp
        @usableFromInline var kind: LogRecordKind
        @usableFromInline var requestID: String?
        @usableFromInline var clientAddress: String?
        @usableFromInline var clientPort: Int?
        @usableFromInline var protocolVersion: String?
        @usableFromInline var http2StreamID: Int?
        @usableFromInline var http2Error: LogHTTP2Error?
        @usableFromInline var method: String?
        @usableFromInline var scheme: String?
        @usableFromInline var host: String?
        @usableFromInline var serverPort: Int?
        @usableFromInline var path: String?
        @usableFromInline var query: String?
        @usableFromInline var statusCode: Int?
        @usableFromInline var requestBodySize: Int?
        @usableFromInline var responseBodySize: Int?
        @usableFromInline var connectMs: Double?
        @usableFromInline var tlsMs: Double?
        @usableFromInline var firstByteMs: Double?
        @usableFromInline var totalMs: Double?
        @usableFromInline var upstream: String?
        @usableFromInline var route: String?
        @usableFromInline var faults: [String] = []
        @usableFromInline var session: String?
        @usableFromInline var sessionUnknown: Bool = false
        @usableFromInline var pinResult: PinResult?
        @usableFromInline var errorType: String?
        @usableFromInline var error: String?
        @usableFromInline var message: String?
        @usableFromInline var attributes: [LogAttribute] = []
        @usableFromInline var requestHeaders: [LogField] = []
        @usableFromInline var responseHeaders: [LogField] = []
        /// Headers kept as lines until read (`LogHeaderLines`); the fields of their direction
        /// are then empty, and become these lines' fields before anything changes them.
        @usableFromInline var requestHeaderLines = LogHeaderLines()
        @usableFromInline var responseHeaderLines = LogHeaderLines()
        @usableFromInline var omittedHeaders: Int = 0
        @usableFromInline var requestBody: String?
        @usableFromInline var responseBody: String?
        @usableFromInline var redacted: [String] = []

        /// Makes the header lines of `direction` its fields, before anything changes them. One
        /// access to `fields` for both: two `inout` accesses through the storage class at once
        /// are an exclusivity violation.
        @usableFromInline mutating func moveHeaderLines(_ direction: LogDirection) {
            if direction == .request {
                requestHeaderLines.move(into: &requestHeaders)
            } else {
                responseHeaderLines.move(into: &responseHeaders)
            }
        }
    }

    /// Gives this record storage of its own before a change.
    @inlinable mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.fields) }
    }

    /// When the record was made (`time`).
    @inlinable public var time: LogTimestamp {
        get { storage.fields.time }
        _modify { makeUnique(); yield &storage.fields.time }
    }
    /// What the record reports (`kind`).
    @inlinable public var kind: LogRecordKind {
        get { storage.fields.kind }
        _modify { makeUnique(); yield &storage.fields.kind }
    }
    /// The exchange's id (`request.id`).
    @inlinable public var requestID: String? {
        get { storage.fields.requestID }
        _modify { makeUnique(); yield &storage.fields.requestID }
    }
    /// The client's IP address (`client.address`).
    @inlinable public var clientAddress: String? {
        get { storage.fields.clientAddress }
        _modify { makeUnique(); yield &storage.fields.clientAddress }
    }
    /// The client's port (`client.port`).
    @inlinable public var clientPort: Int? {
        get { storage.fields.clientPort }
        _modify { makeUnique(); yield &storage.fields.clientPort }
    }
    /// The client side's HTTP version: `1.0`, `1.1` or `2` (`network.protocol.version`).
    @inlinable public var protocolVersion: String? {
        get { storage.fields.protocolVersion }
        _modify { makeUnique(); yield &storage.fields.protocolVersion }
    }
    /// The client-side HTTP/2 stream id (`http2.stream_id`); nil on HTTP/1.
    @inlinable public var http2StreamID: Int? {
        get { storage.fields.http2StreamID }
        _modify { makeUnique(); yield &storage.fields.http2StreamID }
    }
    /// The HTTP/2 error code the exchange's stream or connection ended with, and who sent
    /// it (`http2.error_code`, `http2.error_frame`, `http2.error_sender`); nil when none.
    @inlinable public var http2Error: LogHTTP2Error? {
        get { storage.fields.http2Error }
        _modify { makeUnique(); yield &storage.fields.http2Error }
    }
    /// Request method (`http.request.method`).
    @inlinable public var method: String? {
        get { storage.fields.method }
        _modify { makeUnique(); yield &storage.fields.method }
    }
    /// `http` or `https` (`url.scheme`).
    @inlinable public var scheme: String? {
        get { storage.fields.scheme }
        _modify { makeUnique(); yield &storage.fields.scheme }
    }
    /// The requested host, without port (`server.address`).
    @inlinable public var host: String? {
        get { storage.fields.host }
        _modify { makeUnique(); yield &storage.fields.host }
    }
    /// The requested port (`server.port`).
    @inlinable public var serverPort: Int? {
        get { storage.fields.serverPort }
        _modify { makeUnique(); yield &storage.fields.serverPort }
    }
    /// Request path, capped (`url.path`).
    @inlinable public internal(set) var path: String? {
        get { storage.fields.path }
        _modify { makeUnique(); yield &storage.fields.path }
    }
    /// Query string, redacted and capped (`url.query`).
    @inlinable public internal(set) var query: String? {
        get { storage.fields.query }
        _modify { makeUnique(); yield &storage.fields.query }
    }
    /// Response status (`http.response.status_code`).
    @inlinable public var statusCode: Int? {
        get { storage.fields.statusCode }
        _modify { makeUnique(); yield &storage.fields.statusCode }
    }
    /// Request body bytes (`http.request.body.size`).
    @inlinable public var requestBodySize: Int? {
        get { storage.fields.requestBodySize }
        _modify { makeUnique(); yield &storage.fields.requestBodySize }
    }
    /// Response body bytes (`http.response.body.size`).
    @inlinable public var responseBodySize: Int? {
        get { storage.fields.responseBodySize }
        _modify { makeUnique(); yield &storage.fields.responseBodySize }
    }
    /// Upstream connect time in ms (`faultline.duration.connect`).
    @inlinable public var connectMs: Double? {
        get { storage.fields.connectMs }
        _modify { makeUnique(); yield &storage.fields.connectMs }
    }
    /// Upstream TLS handshake time in ms (`faultline.duration.tls`).
    @inlinable public var tlsMs: Double? {
        get { storage.fields.tlsMs }
        _modify { makeUnique(); yield &storage.fields.tlsMs }
    }
    /// Time to the response's first byte in ms (`faultline.duration.first_byte`).
    @inlinable public var firstByteMs: Double? {
        get { storage.fields.firstByteMs }
        _modify { makeUnique(); yield &storage.fields.firstByteMs }
    }
    /// Whole exchange in ms (`faultline.duration.total`).
    @inlinable public var totalMs: Double? {
        get { storage.fields.totalMs }
        _modify { makeUnique(); yield &storage.fields.totalMs }
    }
    /// Upstream name (`faultline.upstream`).
    @inlinable public var upstream: String? {
        get { storage.fields.upstream }
        _modify { makeUnique(); yield &storage.fields.upstream }
    }
    /// Route name (`faultline.route`).
    @inlinable public var route: String? {
        get { storage.fields.route }
        _modify { makeUnique(); yield &storage.fields.route }
    }
    /// Names of the faults that fired, e.g. `search/status` (`faultline.fault`).
    @inlinable public var faults: [String] {
        get { storage.fields.faults }
        _modify { makeUnique(); yield &storage.fields.faults }
    }
    /// The per-test session the exchange ran in (`faultline.session`).
    @inlinable public var session: String? {
        get { storage.fields.session }
        _modify { makeUnique(); yield &storage.fields.session }
    }
    /// Whether the request named a session that does not exist or expired (`faultline.session_unknown`).
    @inlinable public var sessionUnknown: Bool {
        get { storage.fields.sessionUnknown }
        _modify { makeUnique(); yield &storage.fields.sessionUnknown }
    }
    /// Pin verdict (`faultline.pin.result`).
    @inlinable public var pinResult: PinResult? {
        get { storage.fields.pinResult }
        _modify { makeUnique(); yield &storage.fields.pinResult }
    }
    /// Error class, e.g. `upstream_connect` (`error.type`).
    @inlinable public var errorType: String? {
        get { storage.fields.errorType }
        _modify { makeUnique(); yield &storage.fields.errorType }
    }
    /// Error text, redacted (`faultline.error`).
    @inlinable public internal(set) var error: String? {
        get { storage.fields.error }
        _modify { makeUnique(); yield &storage.fields.error }
    }
    /// Event text for non-exchange records, redacted (`faultline.message`).
    @inlinable public internal(set) var message: String? {
        get { storage.fields.message }
        _modify { makeUnique(); yield &storage.fields.message }
    }
    /// Extra attributes of pin, fault and TLS records, values redacted, each key once.
    @inlinable public internal(set) var attributes: [LogAttribute] {
        get { storage.fields.attributes }
        _modify { makeUnique(); yield &storage.fields.attributes }
    }
    /// Logged request headers, redacted (`http.request.header.<name>`).
    @inlinable public internal(set) var requestHeaders: [LogField] {
        get { storage.fields.requestHeaderLines.fields(else: storage.fields.requestHeaders) }
        _modify {
            makeUnique()
            storage.fields.moveHeaderLines(.request)
            yield &storage.fields.requestHeaders
        }
    }
    /// Logged response headers, redacted (`http.response.header.<name>`).
    @inlinable public internal(set) var responseHeaders: [LogField] {
        get { storage.fields.responseHeaderLines.fields(else: storage.fields.responseHeaders) }
        _modify {
            makeUnique()
            storage.fields.moveHeaderLines(.response)
            yield &storage.fields.responseHeaders
        }
    }

    /// How many headers of `direction` the record holds, without making them into fields.
    func headerCount(_ direction: LogDirection) -> Int {
        direction == .request
            ? storage.fields.requestHeaders.count + storage.fields.requestHeaderLines.count
            : storage.fields.responseHeaders.count + storage.fields.responseHeaderLines.count
    }

    /// The UTF-8 length of every header name and value plus `fieldOverhead` per header, both
    /// directions, without making the kept lines into fields (the HAR capture's size estimate).
    func estimatedHeaderBytes(fieldOverhead: Int) -> Int {
        let fields = storage.fields
        var total = (fields.requestHeaderLines.count + fields.responseHeaderLines.count) * fieldOverhead
            + fields.requestHeaderLines.textBytes + fields.responseHeaderLines.textBytes
        for field in fields.requestHeaders { total += field.name.utf8.count + field.value.utf8.count + fieldOverhead }
        for field in fields.responseHeaders { total += field.name.utf8.count + field.value.utf8.count + fieldOverhead }
        return total
    }

    /// Keeps a message's headers as lines (`LogHeaderLines`); only while none of `direction`
    /// is held (returns false, keeping nothing, otherwise).
    mutating func keepHeaderLines(_ lines: LogHeaderLines, direction: LogDirection) -> Bool {
        guard headerCount(direction) == 0 else { return false }
        makeUnique()
        if direction == .request { storage.fields.requestHeaderLines = lines } else { storage.fields.responseHeaderLines = lines }
        return true
    }
    /// Header fields not logged because of the per-message cap (`faultline.headers.omitted`).
    @inlinable public internal(set) var omittedHeaders: Int {
        get { storage.fields.omittedHeaders }
        _modify { makeUnique(); yield &storage.fields.omittedHeaders }
    }
    /// Logged request body, capped and redacted (`faultline.request.body`).
    @inlinable public internal(set) var requestBody: String? {
        get { storage.fields.requestBody }
        _modify { makeUnique(); yield &storage.fields.requestBody }
    }
    /// Logged response body, capped and redacted (`faultline.response.body`).
    @inlinable public internal(set) var responseBody: String? {
        get { storage.fields.responseBody }
        _modify { makeUnique(); yield &storage.fields.responseBody }
    }
    /// What was redacted, e.g. `request.header.authorization` (`faultline.redacted`).
    @inlinable public internal(set) var redacted: [String] {
        get { storage.fields.redacted }
        _modify { makeUnique(); yield &storage.fields.redacted }
    }

    /// Starts a record of `kind` at `time` (now by default).
    public init(kind: LogRecordKind = .exchange, time: LogTimestamp = .now(), requestID: String? = nil) {
        storage = Storage(Fields(time: time, kind: kind, requestID: requestID))
    }
}
