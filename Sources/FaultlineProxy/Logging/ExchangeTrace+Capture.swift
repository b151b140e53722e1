import FaultlineHTTP
import FaultlineLog

/// What every protocol adapter notes on an exchange's record as the exchange runs: the
/// heads, the body byte counts and captures, a response Faultline wrote itself.
extension ExchangeTrace {
    /// A record for a request (nil head: it could not be parsed), or nil when neither the
    /// log nor the HAR capture nor a journal (`journaled`) wants exchanges (then nothing is allocated).
    /// The head is asked for only when a record is kept: handing it over as an optional copies
    /// it, a retain and a release for each of its buffers, on every request, log off included.
    static func start(_ request: @autoclosure () -> HTTPHead?, log: TrafficLog, scheme: StaticString, now: UInt64,
                      clientProtocol: ClientProtocolVersion? = nil, journaled: Bool = false) -> ExchangeTrace? {
        guard isWanted(log: log, journaled: journaled) else { return nil }
        let head = request()
        let id = RequestID.accept(head?.headers.first("x-request-id"))
        let trace = ExchangeTrace(start: now, requestID: id, request: head, scheme: scheme, log: log,
                                  clientProtocol: clientProtocol)
        // The policy, not a copy of its options: a copy retains and releases each of them.
        let policy = log.policy
        if let head, policy.options.bodies, head.isChunked || (head.contentLength ?? 0) > 0,
           let type = capturedContentType(of: head.headers, policy) {
            trace.requestBody = BodyCapture(contentType: type, limit: policy.options.bodyMaxBytes)
        }
        return trace
    }

    /// Whether an exchange gets a record: the log or the HAR capture is on, or a journal wants it.
    static func isWanted(log: TrafficLog, journaled: Bool) -> Bool {
        log.isEnabled || journaled
    }

    /// The Content-Type of `headers` when `policy` captures bodies of that type, else nil.
    /// Matched on the field's bytes: the String is made only for a body that is captured.
    private static func capturedContentType(of headers: HTTPHeaders, _ policy: LogPolicy) -> String? {
        guard let index = headers.firstIndex(of: "content-type"),
              headers.withField(index, { _, value in policy.options.bodyTypePatterns.matches(value) }) else { return nil }
        return headers.value(at: index)
    }

    /// Notes the response head the client gets and decides whether its body is captured.
    func noteResponse(_ head: HTTPHead, now: UInt64) {
        status = head.status
        firstByte = now
        let policy = log.policy
        if policy.options.headers { responseHead = head }
        if policy.options.bodies, let type = Self.capturedContentType(of: head.headers, policy) {
            responseBody = BodyCapture(contentType: type, limit: policy.options.bodyMaxBytes)
        }
    }

    /// Notes a response Faultline writes itself (an error or a status fault).
    func noteLocalResponse(status: Int, contentType: String?, headers: [(name: String, value: String)],
                           body: [UInt8], now: UInt64) {
        self.status = status
        firstByte = now
        responseBodyBytes = body.count
        let options = log.policy.options
        if options.headers {
            if let contentType { localHeaders.append(("Content-Type", contentType)) }
            localHeaders += headers
        }
        if options.bodies, options.bodyTypePatterns.matches(contentType) {
            var capture = BodyCapture(contentType: contentType, limit: options.bodyMaxBytes)
            capture.append(body)
            responseBody = capture
        }
    }

    /// Counts (and captures the start of) response body bytes the client gets.
    func countResponseBody(_ bytes: UnsafeRawBufferPointer) {
        responseBodyBytes += bytes.count
        responseBody?.append(bytes)
    }

    /// Counts (and captures the start of) request body bytes.
    func countRequestBody(_ bytes: UnsafeRawBufferPointer) {
        requestBodyBytes += bytes.count
        requestBody?.append(bytes)
    }

    /// A record of its own for an upstream TLS handshake that failed (untrusted chain, wrong
    /// name, protocol), beside the exchange's `upstream_tls` error.
    func logUpstreamTLSFailure(upstream: String, reason: String) {
        guard log.tlsEvents else { return }
        var record = LogRecord(kind: .tls, requestID: requestID)
        record.upstream = upstream
        record.route = route
        record.scheme = "https"
        record.setError(type: "upstream_tls", message: reason, policy: log.policy)
        record.setMessage("upstream TLS handshake failed", policy: log.policy)
        log.write(event: record)
    }
}
