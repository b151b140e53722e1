extension LogRecord {
    /// The record as a narrower consumer wants it: without headers and/or bodies, bodies
    /// cut to `bodyMaxBytes`. The record was built (and redacted) once for the widest
    /// consumer, the HAR capture; cutting redacted text cannot reveal anything.
    public func trimmed(headers: Bool, bodies: Bool, bodyMaxBytes: Int) -> LogRecord {
        var copy = self
        if !headers {
            copy.requestHeaders = []
            copy.responseHeaders = []
            copy.omittedHeaders = 0
            copy.redacted.removeAll { $0.contains(".header.") || $0.contains(".cookie.") }
        }
        if bodies {
            copy.requestBody = requestBody.map { Self.cut($0, to: bodyMaxBytes, of: requestBodySize) }
            copy.responseBody = responseBody.map { Self.cut($0, to: bodyMaxBytes, of: responseBodySize) }
        } else {
            copy.requestBody = nil
            copy.responseBody = nil
            copy.redacted.removeAll { $0.contains(".body.") }
        }
        return copy
    }

    /// `text` cut to `limit` bytes; the marker counts what is missing of the whole body
    /// (`size`), not of the text, which may itself be a cut.
    private static func cut(_ text: String, to limit: Int, of size: Int?) -> String {
        let (kept, omitted) = Truncation.cap(text.utf8, limit: limit)
        guard omitted > 0 else { return text }
        return String(decoding: kept, as: UTF8.self) + Truncation.marker(max(omitted, (size ?? 0) - kept.count))
    }
}
