import FaultlineHTTP
import FaultlineLog

extension ExchangeTrace {
    /// The exchange's record: every field that can carry a secret goes through `policy`
    /// as it is stored. `now` is the monotonic end time.
    func record(policy: LogPolicy, client: (ip: String, port: Int?), now: UInt64) -> LogRecord {
        var record = LogRecord(kind: .exchange, time: time, requestID: requestID)
        record.clientAddress = client.ip
        record.clientPort = client.port
        record.scheme = scheme.description
        record.protocolVersion = clientProtocol?.rawValue
        record.http2StreamID = http2StreamID.map { Int($0) }
        record.http2Error = http2Error
        if let request {
            record.method = request.method
            record.setTarget(bytes: request.target, policy: policy)
            if record.host == nil, let host = request.headers.firstIndex(of: "host") {
                request.headers.withField(host) { _, value in record.setHostHeader(bytes: value) }
            }
            record.addHeaders(request.headers, direction: .request, policy: policy)
        }
        record.statusCode = status
        record.requestBodySize = requestBodyBytes
        record.responseBodySize = status == nil ? nil : responseBodyBytes
        if !reusedConnection, connectStart > 0, tcpConnected >= connectStart {
            record.connectMs = Self.milliseconds(tcpConnected - connectStart)
            if usedTLS, connected >= tcpConnected { record.tlsMs = Self.milliseconds(connected - tcpConnected) }
        }
        if firstByte >= start, firstByte > 0 { record.firstByteMs = Self.milliseconds(firstByte - start) }
        record.totalMs = Self.milliseconds(now >= start ? now - start : 0)
        record.upstream = upstream
        record.route = route
        record.faults = faults
        record.pinResult = pinResult
        if policy.options.headers { addResponseHeaders(to: &record, policy: policy) }
        if let body = requestBody {
            record.setBody(body.bytes, totalSize: body.total, contentType: body.contentType, direction: .request, policy: policy,
                           typeChecked: true)
        }
        if let body = responseBody {
            record.setBody(body.bytes, totalSize: body.total, contentType: body.contentType, direction: .response, policy: policy,
                           typeChecked: true)
        }
        if let error { record.setError(type: error.rawValue, message: errorMessage ?? error.rawValue, policy: policy) }
        return record
    }

    private func addResponseHeaders(to record: inout LogRecord, policy: LogPolicy) {
        if let headers = responseHead?.headers { record.addHeaders(headers, direction: .response, policy: policy) }
        record.reserveHeaders(localHeaders.count, direction: .response, policy: policy)
        for header in localHeaders {
            record.addHeader(name: header.name, value: header.value, direction: .response, policy: policy)
        }
    }

    private static func milliseconds(_ nanoseconds: UInt64) -> Double {
        Double(nanoseconds) / 1_000_000
    }
}
