extension HARCapture {
    /// Fixed cost of a record beyond its text: the HAR entry's framing and the record's own storage.
    private static let recordOverhead = 256
    /// Cost of each header, attribute or list element beyond its text (`{"name":…,"value":…}`).
    private static let fieldOverhead = 32

    /// The size a record is charged against the byte limit: the UTF-8 length of its
    /// strings plus a fixed overhead. An estimate, cheap enough for every exchange
    /// (native strings know their UTF-8 length, and nothing is allocated).
    public static func estimatedBytes(_ record: LogRecord) -> Int {
        var total = recordOverhead
        func add(_ text: String?) { total += text?.utf8.count ?? 0 }
        func add(_ fields: [LogField]) {
            for field in fields { total += field.name.utf8.count + field.value.utf8.count + fieldOverhead }
        }
        func add(_ list: [String]) {
            for text in list { total += text.utf8.count + fieldOverhead }
        }
        add(record.requestID)
        add(record.clientAddress)
        add(record.protocolVersion)
        add(record.method)
        add(record.scheme)
        add(record.host)
        add(record.path)
        add(record.query)
        add(record.upstream)
        add(record.route)
        add(record.pinResult?.rawValue)
        add(record.errorType)
        if let error = record.http2Error { total += error.name.utf8.count + 3 * fieldOverhead }
        add(record.error)
        add(record.message)
        add(record.requestBody)
        add(record.responseBody)
        total += record.estimatedHeaderBytes(fieldOverhead: fieldOverhead)
        for attribute in record.attributes { total += attribute.estimatedBytes(overhead: fieldOverhead) }
        add(record.faults)
        add(record.redacted)
        return total
    }
}
