/// Encodes a record as one JSON object on one line (JSON Lines), keys in a fixed order,
/// absent fields left out. Names follow OpenTelemetry's semantic conventions where one
/// exists (`http.request.method`, `url.path`, `http.response.status_code`…); the rest
/// are under `faultline.`.
public enum JSONLineEncoder {
    /// The record's line, ending in `\n`; `scope` leaves out headers and/or bodies.
    public static func encode(_ record: LogRecord, scope: LogLineScope = .all) -> [UInt8] {
        withLine(record, scope: scope) { Array($0) }
    }

    /// Calls `body` with the record's line, ending in `\n`, in memory that lives only for
    /// the call: the sink copies it straight into its queue, with no array made per line.
    static func withLine<R>(_ record: LogRecord, scope: LogLineScope, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        // Room for a usual line at once: growing the buffer midway costs a copy of the line.
        let headerRoom = scope.headers ? (record.requestHeaders.count + record.responseHeaders.count) * 96 : 0
        var writer = JSONWriter(capacity: 1024 + headerRoom)
        write(record, scope: scope, into: &writer)
        return writer.out.withBytes { body(UnsafeRawBufferPointer($0)) }
    }

    private static func write(_ record: LogRecord, scope: LogLineScope, into writer: inout JSONWriter) {
        writer.begin()
        writer.member("time", time: record.time)
        writer.member("kind", record.kind.rawValue)
        writer.member("request.id", record.requestID)
        writer.member("client.address", record.clientAddress)
        writer.member("client.port", record.clientPort)
        writer.member("network.protocol.version", record.protocolVersion)
        writer.member("http2.stream_id", record.http2StreamID)
        writer.member("http.request.method", record.method)
        writer.member("url.scheme", record.scheme)
        writer.member("server.address", record.host)
        writer.member("server.port", record.serverPort)
        writer.member("url.path", record.path)
        writer.member("url.query", record.query)
        writer.member("http.response.status_code", record.statusCode)
        writer.member("http.request.body.size", record.requestBodySize)
        writer.member("http.response.body.size", record.responseBodySize)
        writer.member("faultline.duration.connect", milliseconds: record.connectMs)
        writer.member("faultline.duration.tls", milliseconds: record.tlsMs)
        writer.member("faultline.duration.first_byte", milliseconds: record.firstByteMs)
        writer.member("faultline.duration.total", milliseconds: record.totalMs)
        writer.member("faultline.upstream", record.upstream)
        writer.member("faultline.route", record.route)
        writer.member("faultline.fault", record.faults)
        writer.member("faultline.session", record.session)
        writer.member("faultline.session_unknown", flag: record.sessionUnknown)
        writer.member("faultline.pin.result", record.pinResult?.rawValue)
        writer.member("error.type", record.errorType)
        writer.member("faultline.error", record.error)
        writer.member("http2.error_code", record.http2Error?.name)
        writer.member("http2.error_frame", record.http2Error?.frame.rawValue)
        writer.member("http2.error_sender", record.http2Error?.sender.rawValue)
        writer.member("faultline.message", record.message)
        for attribute in record.attributes { Self.attribute(attribute, &writer) }
        if scope.headers {
            headers(record.requestHeaders, prefix: "http.request.header.", &writer)
            headers(record.responseHeaders, prefix: "http.response.header.", &writer)
            writer.member("faultline.headers.omitted", record.omittedHeaders == 0 ? nil : record.omittedHeaders)
        }
        if scope.bodies {
            writer.member("faultline.request.body", record.requestBody)
            writer.member("faultline.response.body", record.responseBody)
        }
        writer.member("faultline.redacted", record.redacted(in: scope))
        writer.end()
    }

    /// The keys `encode` writes itself, which no attribute may reuse (see `isRecordKey`).
    private static let recordKeys: Set<String> = [
        "time", "kind", "request.id", "client.address", "client.port", "network.protocol.version", "http2.stream_id",
        "http.request.method", "url.scheme", "server.address", "server.port", "url.path", "url.query",
        "http.response.status_code", "http.request.body.size", "http.response.body.size", "faultline.duration.connect",
        "faultline.duration.tls", "faultline.duration.first_byte", "faultline.duration.total", "faultline.upstream",
        "faultline.route", "faultline.fault", "faultline.session", "faultline.session_unknown", "faultline.pin.result", "error.type", "faultline.error", "http2.error_code",
        "http2.error_frame", "http2.error_sender", "faultline.message",
        "faultline.headers.omitted", "faultline.request.body", "faultline.response.body", "faultline.redacted",
    ]

    /// Whether `key` is one the line writes itself (a fixed key or a header's), so that an
    /// attribute with it would repeat a key.
    static func isRecordKey(_ key: String) -> Bool {
        recordKeys.contains(key) || key.hasPrefix("http.request.header.") || key.hasPrefix("http.response.header.")
    }

    /// One attribute: a string, an array of strings, or an array of objects.
    private static func attribute(_ attribute: LogAttribute, _ writer: inout JSONWriter) {
        writer.key(attribute.name)
        switch attribute.value {
        case .string(let text):
            writer.string(text)
        case .strings(let texts):
            writer.array(texts)
        case .objects(let objects):
            writer.out.append(UInt8(ascii: "["))
            for (index, object) in objects.enumerated() {
                if index > 0 { writer.out.append(UInt8(ascii: ",")) }
                writer.out.append(UInt8(ascii: "{"))
                for (position, field) in object.enumerated() {
                    if position > 0 { writer.out.append(UInt8(ascii: ",")) }
                    writer.string(field.name)
                    writer.out.append(UInt8(ascii: ":"))
                    writer.string(field.value)
                }
                writer.out.append(UInt8(ascii: "}"))
            }
            writer.out.append(UInt8(ascii: "]"))
        }
    }

    /// Headers as OpenTelemetry string arrays, one key per name (repeated fields grouped,
    /// in first-seen order). Messages have few headers: a linear scan beats hashing. Each field
    /// is compared only with the fields after it that are not written yet, and names of
    /// another length are told apart without a String comparison.
    private static func headers(_ fields: [LogField], prefix: StaticString, _ writer: inout JSONWriter) {
        withUnsafeTemporaryAllocation(of: Int.self, capacity: max(1, fields.count)) { lengths in
            for index in fields.indices { lengths[index] = fields[index].name.utf8.count }
            for index in fields.indices where lengths[index] >= 0 {
                let field = fields[index]
                writer.key(prefix, suffix: field.name)
                writer.out.append(UInt8(ascii: "["))
                writer.string(field.value)
                for later in (index + 1)..<max(index + 1, fields.count)
                where lengths[later] == lengths[index] && fields[later].name == field.name {
                    writer.out.append(UInt8(ascii: ","))
                    writer.string(fields[later].value)
                    lengths[later] = -1
                }
                writer.out.append(UInt8(ascii: "]"))
            }
        }
    }
}
