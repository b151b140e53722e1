import FaultlineHTTP
import FaultlineLog

/// The exchange's log record: started when a request head arrives (or fails to parse),
/// filled in as the exchange runs, written once when it ends, however it ends.
extension DownstreamConnection {
    /// Starts the record of a request (nil: it could not be parsed). Nothing is allocated
    /// when neither the log nor the HAR capture wants exchanges.
    @discardableResult
    func startTrace(_ head: HTTPHead?, log: TrafficLog) -> ExchangeTrace? {
        guard log.isEnabled else { return nil }
        let id = RequestID.accept(head?.headers.first("x-request-id"))
        let trace = ExchangeTrace(start: context.loop.now, requestID: id, request: head, scheme: scheme, log: log)
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
        let trace = self.trace ?? startTrace(nil, log: context.snapshot.log)
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

    /// Writes the record of the exchange that just ended, if one was started.
    func endTrace() {
        guard let trace else { return }
        self.trace = nil
        let record = trace.record(policy: trace.log.policy, client: (clientIP, clientPort), now: context.loop.now)
        trace.log.write(exchange: record)
    }

    /// A record of its own for a client whose TLS handshake failed (`log.tls_events`).
    func logClientTLSFailure(_ reason: String) {
        let log = context.snapshot.log
        guard log.tlsEvents else { return }
        var record = LogRecord(kind: .tls)
        record.clientAddress = clientIP
        record.clientPort = clientPort
        record.scheme = "https"
        record.setError(type: "tls_handshake", message: reason, policy: log.policy)
        record.setMessage("client TLS handshake failed", policy: log.policy)
        log.write(event: record)
    }

    /// A record of its own for an upstream TLS handshake that failed (untrusted chain,
    /// wrong name, protocol), beside the exchange's `upstream_tls` error.
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
