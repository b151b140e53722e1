extension LogRecord {
    /// The record as a narrower consumer wants it: without headers and/or bodies, bodies
    /// cut to `bodyMaxBytes`. The record was built (and redacted) once for the widest
    /// consumer, the HAR capture; cutting redacted text cannot reveal anything.
    /// Consuming: the caller's last use of a record trims it in place instead of copying it.
    public consuming func trimmed(headers: Bool, bodies: Bool, bodyMaxBytes: Int) -> LogRecord {
        let scope = LogLineScope(headers: headers, bodies: bodies)
        redacted = redacted(in: scope)
        if !headers {
            requestHeaders = []
            responseHeaders = []
            omittedHeaders = 0
        }
        if bodies {
            requestBody = requestBody.map { Self.cut($0, to: bodyMaxBytes, of: requestBodySize) }
            responseBody = responseBody.map { Self.cut($0, to: bodyMaxBytes, of: responseBodySize) }
        } else {
            requestBody = nil
            responseBody = nil
        }
        return self
    }

    /// `text` cut to `limit` bytes; the marker counts what is missing of the whole body
    /// (`size`), not of the text, which may itself be a cut.
    private static func cut(_ text: String, to limit: Int, of size: Int?) -> String {
        let (kept, omitted) = Truncation.cap(text.utf8, limit: limit)
        guard omitted > 0 else { return text }
        return String(decoding: kept, as: UTF8.self) + Truncation.marker(max(omitted, (size ?? 0) - kept.count))
    }
}
