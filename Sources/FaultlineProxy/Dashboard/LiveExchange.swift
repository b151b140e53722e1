import FaultlineLog

/// An exchange as the dashboard shows it, built from its redacted log record: the table's
/// row, and with `detail` the headers, timings and body previews the log policy kept.
/// Nothing here comes from anywhere but the redacted record, so the page sees no secret the
/// log would not show.
struct LiveExchange: Sendable, Encodable {
    let seq: Int
    let time: String
    let method: String?
    let scheme: String?
    let host: String?
    let path: String?
    let query: String?
    let status: Int?
    let durationMs: Double?
    let route: String?
    let upstream: String?
    let session: String?
    let faults: [String]
    let pin: String?
    let error: String?
    let clientProtocol: String?
    let http2Stream: Int?
    let http2Error: HTTP2Error?
    let requestBytes: Int?
    let responseBytes: Int?
    let detail: Detail?

    /// The HTTP/2 error code that ended the stream or its connection.
    struct HTTP2Error: Sendable, Encodable {
        let code: String
        let frame: String
        let sender: String
    }

    /// What only the detail view needs.
    struct Detail: Sendable, Encodable {
        let connectMs: Double?
        let tlsMs: Double?
        let firstByteMs: Double?
        let totalMs: Double?
        /// `[name, value]` pairs, redacted; empty when the log policy keeps no headers.
        let requestHeaders: [[String]]
        let responseHeaders: [[String]]
        let headersCaptured: Bool
        let omittedHeaders: Int
        let requestBody: String?
        let responseBody: String?
        let errorMessage: String?
        /// Which fields redaction changed.
        let redacted: [String]

        enum CodingKeys: String, CodingKey {
            case connectMs = "connect_ms", tlsMs = "tls_ms", firstByteMs = "first_byte_ms", totalMs = "total_ms"
            case requestHeaders = "request_headers", responseHeaders = "response_headers"
            case headersCaptured = "headers_captured", omittedHeaders = "omitted_headers"
            case requestBody = "request_body", responseBody = "response_body", errorMessage = "error_message", redacted
        }
    }

    init(_ live: LiveRecord, detail wantsDetail: Bool) {
        let record = live.record
        seq = live.seq
        time = record.time.rfc3339
        method = record.method
        scheme = record.scheme
        host = record.host
        path = record.path
        query = record.query
        status = record.statusCode
        durationMs = record.totalMs
        route = record.route
        upstream = record.upstream
        session = record.session
        faults = record.faults
        pin = record.pinResult?.rawValue
        error = record.errorType
        clientProtocol = record.protocolVersion
        http2Stream = record.http2StreamID
        http2Error = record.http2Error.map { HTTP2Error(code: $0.name, frame: $0.frame.rawValue, sender: $0.sender.rawValue) }
        requestBytes = record.requestBodySize
        responseBytes = record.responseBodySize
        guard wantsDetail else {
            detail = nil
            return
        }
        let requestHeaders = record.requestHeaders.map { [$0.name, $0.value] }
        let responseHeaders = record.responseHeaders.map { [$0.name, $0.value] }
        detail = Detail(connectMs: record.connectMs, tlsMs: record.tlsMs, firstByteMs: record.firstByteMs, totalMs: record.totalMs,
                        requestHeaders: requestHeaders, responseHeaders: responseHeaders,
                        headersCaptured: !requestHeaders.isEmpty || !responseHeaders.isEmpty || record.omittedHeaders > 0,
                        omittedHeaders: record.omittedHeaders, requestBody: record.requestBody, responseBody: record.responseBody,
                        errorMessage: record.error, redacted: record.redacted)
    }

    enum CodingKeys: String, CodingKey {
        case seq, time, method, scheme, host, path, query, status, route, upstream, session, faults, pin, error, detail
        case durationMs = "duration_ms", clientProtocol = "protocol", http2Stream = "h2_stream", http2Error = "h2_error"
        case requestBytes = "request_bytes", responseBytes = "response_bytes"
    }
}
