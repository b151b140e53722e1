import FaultlineHTTP
import FaultlineLog

/// The stream's log record: one per stream, started when its request head arrives, written
/// once when its exchange ends, however it ends.
extension HTTP2Stream {
    /// Starts the record of a request (nil head: it could not be translated). Nothing is
    /// allocated when neither the log nor the HAR capture wants exchanges.
    @discardableResult
    func startTrace(_ head: HTTPHead?) -> ExchangeTrace? {
        let log = context.snapshot.log
        guard log.isEnabled else { return nil }
        let requestID = RequestID.accept(head?.headers.first("x-request-id"))
        let trace = ExchangeTrace(start: context.loop.now, requestID: requestID, request: head, scheme: connection.scheme, log: log,
                                  clientProtocol: .http2)
        trace.http2StreamID = id
        if let head, log.policy.options.bodies, head.isChunked || (head.contentLength ?? 0) > 0 {
            let type = head.headers.first("content-type")
            if MediaType.matches(type, log.policy.options.bodyTypes) {
                trace.requestBody = BodyCapture(contentType: type, limit: log.policy.options.bodyMaxBytes)
            }
        }
        self.trace = trace
        return trace
    }

    /// Notes the response head the client gets and decides whether its body is captured.
    func traceResponse(_ head: HTTPHead) {
        guard let trace else { return }
        trace.status = head.status
        trace.firstByte = context.loop.now
        let options = trace.log.policy.options
        if options.headers { trace.responseHead = head }
        if options.bodies {
            let type = head.headers.first("content-type")
            if MediaType.matches(type, options.bodyTypes) {
                trace.responseBody = BodyCapture(contentType: type, limit: options.bodyMaxBytes)
            }
        }
    }

    /// Notes a response Faultline writes itself (an error or a status fault).
    func traceLocalResponse(status: Int, contentType: String?, headers: [(name: String, value: String)] = [],
                            body: [UInt8]) {
        guard let trace else { return }
        trace.status = status
        trace.firstByte = context.loop.now
        trace.responseBodyBytes = body.count
        let options = trace.log.policy.options
        if options.headers {
            if let contentType { trace.localHeaders.append(("Content-Type", contentType)) }
            trace.localHeaders += headers
        }
        if options.bodies, MediaType.matches(contentType, options.bodyTypes) {
            var capture = BodyCapture(contentType: contentType, limit: options.bodyMaxBytes)
            capture.append(body)
            trace.responseBody = capture
        }
    }

    /// Counts (and captures the start of) response body bytes the client gets.
    func traceResponseBody(_ bytes: UnsafeRawBufferPointer) {
        guard let trace else { return }
        trace.responseBodyBytes += bytes.count
        trace.responseBody?.append(bytes)
    }

    /// Counts (and captures the start of) request body bytes.
    func traceRequestBody(_ bytes: UnsafeRawBufferPointer) {
        guard let trace else { return }
        trace.requestBodyBytes += bytes.count
        trace.requestBody?.append(bytes)
    }

    /// Writes the record of the stream's exchange, if one was started.
    func endTrace() {
        guard let trace else { return }
        self.trace = nil
        let record = trace.record(policy: trace.log.policy, client: (connection.clientIP, connection.clientPort), now: context.loop.now)
        trace.log.write(exchange: record)
    }

    /// A record of its own for an upstream TLS handshake that failed, beside the exchange's error.
    func logUpstreamTLSFailure(upstream: String, reason: String) {
        guard let trace, trace.log.tlsEvents else { return }
        var record = LogRecord(kind: .tls, requestID: trace.requestID)
        record.upstream = upstream
        record.route = trace.route
        record.scheme = "https"
        record.setError(type: "upstream_tls", message: reason, policy: trace.log.policy)
        record.setMessage("upstream TLS handshake failed", policy: trace.log.policy)
        trace.log.write(event: record)
    }
}
