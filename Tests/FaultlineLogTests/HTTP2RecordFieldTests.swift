import Foundation
import Testing
import FaultlineLog
import FaultlineTestSupport

/// The HTTP/2 fields of a record (protocol version, stream id, error code) in both line
/// formats and the HAR entry, and HTTP/1 records exactly as they were without them.
@Suite("HTTP/2 record fields")
struct HTTP2RecordFieldTests {
    private let policy = LogPolicy(options: LogOptions(headers: true, bodies: true))

    private func record(version: String?, stream: Int? = nil, error: LogHTTP2Error? = nil) -> LogRecord {
        var record = LogRecord(kind: .exchange, time: LogTimestamp(seconds: 1_795_964_400, nanoseconds: 123_456_789),
                               requestID: "4f9c2a7e1b3d5a60")
        record.clientAddress = "127.0.0.1"
        record.clientPort = 52114
        record.protocolVersion = version
        record.http2StreamID = stream
        record.http2Error = error
        record.method = "GET"
        record.scheme = "https"
        record.host = "localhost"
        record.setTarget("/users?q=ann&token=abc", policy: policy)
        record.statusCode = 200
        record.totalMs = 12.345
        record.route = "search"
        return record
    }

    private static let refused = LogHTTP2Error(code: 7, frame: .rstStream, sender: .faultline)

    private func text(_ record: LogRecord, colour: Bool = false) -> String {
        String(decoding: TextLineEncoder(colour: colour).encode(record), as: UTF8.self)
    }

    @Test func errorCodesHaveTheirRFC9113Names() {
        let names = (0...13).map { LogHTTP2Error(code: UInt32($0), frame: .goaway, sender: .client).name }
        #expect(names == ["NO_ERROR", "PROTOCOL_ERROR", "INTERNAL_ERROR", "FLOW_CONTROL_ERROR", "SETTINGS_TIMEOUT",
                          "STREAM_CLOSED", "FRAME_SIZE_ERROR", "REFUSED_STREAM", "CANCEL", "COMPRESSION_ERROR",
                          "CONNECT_ERROR", "ENHANCE_YOUR_CALM", "INADEQUATE_SECURITY", "HTTP_1_1_REQUIRED"])
        #expect(LogHTTP2Error(code: 0x1f, frame: .rstStream, sender: .upstream).name == "0x1f")
        #expect(LogHTTP2Error(code: UInt32.max, frame: .rstStream, sender: .upstream).name == "0xffffffff")
    }

    @Test func jsonLineCarriesVersionStreamAndError() throws {
        let line = JSONLineEncoder.encode(record(version: "2", stream: 3, error: Self.refused))
        let object = try JSONObject.parse(line)
        #expect(object["network.protocol.version"] as? String == "2")
        #expect(object["http2.stream_id"] as? Int == 3)
        #expect(object["http2.error_code"] as? String == "REFUSED_STREAM")
        #expect(object["http2.error_frame"] as? String == "RST_STREAM")
        #expect(object["http2.error_sender"] as? String == "faultline")
        let text = String(decoding: line, as: UTF8.self)
        #expect(text.contains(#""network.protocol.version":"2","http2.stream_id":3,"http.request.method":"GET""#), "\(text)")

        let goaway = JSONLineEncoder.encode(record(version: "2", stream: 5,
                                                   error: LogHTTP2Error(code: 0, frame: .goaway, sender: .client)))
        let parsed = try JSONObject.parse(goaway)
        #expect(parsed["http2.error_code"] as? String == "NO_ERROR" && parsed["http2.error_frame"] as? String == "GOAWAY")
        #expect(parsed["http2.error_sender"] as? String == "client")
    }

    @Test func attributesCannotReuseTheHTTP2Keys() throws {
        var record = record(version: "2", stream: 1, error: Self.refused)
        for key in ["http2.stream_id", "http2.error_code", "http2.error_frame", "http2.error_sender"] {
            record.addAttribute(key, "spoofed", policy: policy)
        }
        #expect(record.attributes.isEmpty)
        let line = String(decoding: JSONLineEncoder.encode(record), as: UTF8.self)
        #expect(!line.contains("spoofed") && line.components(separatedBy: #""http2.error_code""#).count == 2, "\(line)")
    }

    @Test func http1JSONLineHasNoHTTP2Keys() throws {
        let object = try JSONObject.parse(JSONLineEncoder.encode(record(version: "1.1")))
        #expect(object["network.protocol.version"] as? String == "1.1")
        #expect(Set(object.keys) == ["time", "kind", "request.id", "client.address", "client.port", "network.protocol.version",
                                      "http.request.method", "url.scheme", "server.address", "url.path", "url.query",
                                      "http.response.status_code", "faultline.duration.total", "faultline.route",
                                      "faultline.redacted"])
    }

    @Test func textLineShowsProtocolStreamAndError() {
        let line = text(record(version: "2", stream: 3, error: Self.refused))
        #expect(line == "2026-11-29T15:00:00.123Z 127.0.0.1 GET /users?q=ann&token=[REDACTED] → 200 12.3ms proto=2 stream=3 "
                + #"h2.error="REFUSED_STREAM (RST_STREAM by faultline)" route=search id=4f9c2a7e1b3d5a60 "#
                + "redacted=request.query.token\n")
        #expect(text(record(version: "2", stream: 3, error: Self.refused), colour: true)
            .contains("\u{1B}[31mh2.error=\"REFUSED_STREAM (RST_STREAM by faultline)\"\u{1B}[0m"))
        // A graceful GOAWAY (NO_ERROR) is not painted as an error.
        let graceful = text(record(version: "2", stream: 9, error: LogHTTP2Error(code: 0, frame: .goaway, sender: .faultline)),
                            colour: true)
        #expect(graceful.contains(#" h2.error="NO_ERROR (GOAWAY by faultline)" "#), "\(graceful)")
        #expect(text(record(version: "2", stream: 1)).contains(" 12.3ms proto=2 stream=1 route=search "))
    }

    @Test func http1TextLineIsUnchanged() {
        let expected = "2026-11-29T15:00:00.123Z 127.0.0.1 GET /users?q=ann&token=[REDACTED] → 200 12.3ms route=search "
            + "id=4f9c2a7e1b3d5a60 redacted=request.query.token\n"
        #expect(text(record(version: "1.1")) == expected)
        #expect(text(record(version: "1.0")) == expected)
        #expect(text(record(version: nil)) == expected)
    }

    private func entry(_ record: LogRecord) throws -> [String: Any] {
        let capture = HARCapture(maxEntries: 4, maxBytes: 1 << 20)
        capture.append(record)
        let document = try JSONObject.parse(capture.export(creatorVersion: "9.9.9"))
        try validateHAR(document)
        let entries = (document["log"] as? [String: Any])?["entries"] as? [[String: Any]]
        return try #require(entries?.first)
    }

    private func versions(_ entry: [String: Any]) -> [String?] {
        [(entry["request"] as? [String: Any])?["httpVersion"] as? String, (entry["response"] as? [String: Any])?["httpVersion"] as? String]
    }

    @Test func harEntryOfAnHTTP2Exchange() throws {
        let h2 = try entry(record(version: "2", stream: 3, error: Self.refused))
        #expect(versions(h2) == ["HTTP/2.0", "HTTP/2.0"])
        #expect(h2["_streamId"] as? Int == 3)
        #expect(h2["_http2ErrorCode"] as? String == "REFUSED_STREAM")
        #expect(h2["_http2ErrorFrame"] as? String == "RST_STREAM" && h2["_http2ErrorSender"] as? String == "faultline")

        let clean = try entry(record(version: "2", stream: 1))
        #expect(clean["_streamId"] as? Int == 1 && clean["_http2ErrorCode"] == nil && clean["_http2ErrorFrame"] == nil)
    }

    @Test func harEntryOfAnHTTP1ExchangeHasNoHTTP2Fields() throws {
        for (version, expected) in [("1.1", "HTTP/1.1"), ("1.0", "HTTP/1.0"), (nil, "HTTP/1.1")] as [(String?, String)] {
            let h1 = try entry(record(version: version))
            #expect(versions(h1) == [expected, expected])
            #expect(h1.keys.filter { $0.hasPrefix("_") }.sorted() == ["_clientAddress", "_faults", "_redacted", "_requestId", "_route"],
                    "\(h1.keys.sorted())")
        }
    }

    @Test func captureChargesTheErrorName() {
        let plain = record(version: "2", stream: 3)
        let reset = record(version: "2", stream: 3, error: Self.refused)
        #expect(HARCapture.estimatedBytes(reset) > HARCapture.estimatedBytes(plain) + "REFUSED_STREAM".utf8.count)
    }
}
