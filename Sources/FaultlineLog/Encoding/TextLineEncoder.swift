/// Encodes a record as one readable line, e.g.
/// `2026-11-29T15:00:00.123Z 127.0.0.1 GET /users?q=[REDACTED] → 503 12.3ms route=search fault=search/status`,
/// with ANSI colour (status by class, faults, errors) only when `colour` is on. An HTTP/2
/// exchange adds `proto=2 stream=N` and, when its stream was reset or its connection went
/// away, `h2.error="REFUSED_STREAM (RST_STREAM by faultline)"`.
public struct TextLineEncoder: Sendable {
    /// Whether to colour the line (only for a terminal).
    public let colour: Bool

    /// Creates an encoder.
    public init(colour: Bool) {
        self.colour = colour
    }

    /// The record's line, ending in `\n`; `scope` leaves out headers and/or bodies.
    public func encode(_ record: LogRecord, scope: LogLineScope = .all) -> [UInt8] {
        var writer = TextWriter(colour: colour)
        writer.bytes.reserveCapacity(256)
        writer.word(record.time.rfc3339, .dim)
        if record.kind != .exchange { writer.word("[\(record.kind.rawValue)]", .cyan) }
        writer.word(record.clientAddress ?? "-")
        if let method = record.method { writer.word(method) }
        if let path = record.path {
            writer.word(path + (record.query.map { "?" + $0 } ?? ""))
        }
        if record.kind == .exchange {
            writer.raw(" →")
            writer.word(record.statusCode.map(String.init) ?? "---", Self.tint(record.statusCode))
            if let total = record.totalMs, total.isFinite {
                var out: [UInt8] = []
                JSONWriter.milliseconds(total, &out)
                writer.word(Self.oneDecimal(out) + "ms")
            }
        }
        details(record, scope: scope, &writer)
        writer.end()
        return writer.bytes
    }

    private func details(_ record: LogRecord, scope: LogLineScope, _ writer: inout TextWriter) {
        // HTTP/1 lines stay as they were: the version shows only when it is not 1.x.
        if let version = record.protocolVersion, !version.hasPrefix("1.") { writer.pair("proto", version) }
        writer.pair("stream", record.http2StreamID.map(String.init))
        if let error = record.http2Error {
            let text = "\(error.name) (\(error.frame.rawValue) by \(error.sender.rawValue))"
            writer.pair("h2.error", text, error.code == 0 ? nil : .red)
        }
        writer.pair("route", record.route)
        writer.pair("upstream", record.upstream)
        writer.pair("fault", record.faults.isEmpty ? nil : record.faults.joined(separator: ","), .magenta)
        writer.pair("session", record.session ?? (record.sessionUnknown ? "unknown" : nil))
        writer.pair("pin", record.pinResult?.rawValue)
        writer.pair("error", record.errorType.map { type in record.error.map { "\(type): \($0)" } ?? type }, .red)
        writer.pair("msg", record.message)
        for attribute in record.attributes { writer.pair(attribute.name, Self.text(attribute.value)) }
        if scope.headers {
            for field in record.requestHeaders { writer.pair("req." + field.name, field.value, .dim) }
            for field in record.responseHeaders { writer.pair("resp." + field.name, field.value, .dim) }
        }
        if scope.bodies {
            writer.pair("req.body", record.requestBody, .dim)
            writer.pair("resp.body", record.responseBody, .dim)
        }
        writer.pair("id", record.requestID, .dim)
        let redacted = record.redacted(in: scope)
        writer.pair("redacted", redacted.isEmpty ? nil : redacted.joined(separator: ","), .dim)
    }

    /// An attribute's value on a text line: list items joined by `, `, objects as `k=v` words.
    private static func text(_ value: LogAttribute.Value) -> String {
        switch value {
        case .string(let text): text
        case .strings(let texts): texts.joined(separator: ", ")
        case .objects(let objects): objects.map { $0.map { "\($0.name)=\($0.value)" }.joined(separator: " ") }.joined(separator: "; ")
        }
    }

    private static func tint(_ status: Int?) -> TextWriter.Colour {
        switch status ?? 0 {
        case 200..<300: .green
        case 300..<400: .cyan
        case 400..<500: .yellow
        default: .red
        }
    }

    /// `12.345` → `12.3` (text form shows tenths of a millisecond).
    private static func oneDecimal(_ fixed: [UInt8]) -> String {
        String(decoding: fixed.dropLast(2), as: UTF8.self)
    }
}
