/// One HAR entry from one record: the standard fields, then Faultline's own under
/// HAR's `_` prefix for custom fields (route, upstream, faults, pin result, error, the
/// HTTP/2 stream id and error code, and what was redacted).
struct HAREntryEncoder {
    let record: LogRecord

    /// Writes the entry object.
    func write(to writer: inout HARJSONWriter) {
        let timings = HARTimings(record)
        writer.object { entry in
            entry.member("startedDateTime", record.time.rfc3339)
            entry.key("time")
            entry.milliseconds(micros: timings.total)
            entry.member("request", object: writeRequest)
            entry.member("response", object: writeResponse)
            entry.member("cache", object: { _ in })
            entry.member("timings", object: { object in
                for (name, value) in [
                    ("blocked", nil), ("dns", nil), ("connect", timings.connect), ("ssl", timings.ssl),
                    ("send", 0), ("wait", timings.wait), ("receive", timings.receive),
                ] as [(String, Int64?)] {
                    object.key(name)
                    object.milliseconds(micros: value)
                }
            })
            writeCustomFields(&entry)
        }
    }

    private func writeCustomFields(_ entry: inout HARJSONWriter) {
        entry.optionalMember("_requestId", record.requestID)
        entry.optionalMember("_clientAddress", record.clientAddress)
        entry.optionalMember("_route", record.route)
        entry.optionalMember("_upstream", record.upstream)
        entry.member("_faults", strings: record.faults)
        entry.optionalMember("_pinResult", record.pinResult?.rawValue)
        if let type = record.errorType {
            entry.member("_error", object: { error in
                error.member("type", type)
                error.optionalMember("message", record.error)
            })
        }
        if let stream = record.http2StreamID { entry.member("_streamId", stream) }
        if let error = record.http2Error {
            entry.member("_http2ErrorCode", error.name)
            entry.member("_http2ErrorFrame", error.frame.rawValue)
            entry.member("_http2ErrorSender", error.sender.rawValue)
        }
        entry.member("_redacted", strings: record.redacted)
        if record.omittedHeaders > 0 {
            entry.member("_headersOmitted", record.omittedHeaders)
        }
    }

    /// The value of the first header called `name` (lowercase, as records store them).
    static func header(_ name: String, in fields: [LogField]) -> String? {
        fields.first { $0.name == name }?.value
    }

    /// `HTTP/1.1`, `HTTP/1.0` or `HTTP/2.0` (the form HAR viewers show) from the record's
    /// protocol version, 1.1 when unknown.
    var httpVersion: String {
        switch record.protocolVersion {
        case "2"?: "HTTP/2.0"
        case let version?: "HTTP/" + version
        case nil: "HTTP/1.1"
        }
    }
}
