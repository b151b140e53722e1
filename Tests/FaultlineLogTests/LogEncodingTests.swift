import Foundation
import Testing
import FaultlineLog
import FaultlineTestSupport

@Suite("Record encoding")
struct LogEncodingTests {
    private let policy = LogPolicy(options: LogOptions(headers: true, bodies: true, headerValueMaxBytes: 64, bodyMaxBytes: 32))

    private func sample() -> LogRecord {
        var record = LogRecord(kind: .exchange, time: LogTimestamp(seconds: 1_795_964_400, nanoseconds: 123_456_789),
                               requestID: "4f9c2a7e1b3d5a60")
        record.clientAddress = "127.0.0.1"
        record.clientPort = 52114
        record.protocolVersion = "1.1"
        record.method = "GET"
        record.scheme = "http"
        record.host = "localhost"
        record.setTarget("/users?q=ann&token=abc", policy: policy)
        record.statusCode = 503
        record.requestBodySize = 0
        record.responseBodySize = 19
        record.connectMs = 1.5
        record.tlsMs = 2
        record.firstByteMs = 10.25
        record.totalMs = 12.345
        record.upstream = "staging"
        record.route = "search"
        record.faults = ["search/status"]
        record.pinResult = .match
        return record
    }

    @Test func jsonLineParsesWithEveryField() throws {
        let line = JSONLineEncoder.encode(sample())
        #expect(line.last == 10)
        #expect(line.dropLast().contains(10) == false)
        let object = try JSONObject.parse(line)
        #expect(object["time"] as? String == "2026-11-29T15:00:00.123Z")
        #expect(object["kind"] as? String == "exchange")
        #expect(object["request.id"] as? String == "4f9c2a7e1b3d5a60")
        #expect(object["client.address"] as? String == "127.0.0.1")
        #expect(object["client.port"] as? Int == 52114)
        #expect(object["network.protocol.version"] as? String == "1.1")
        #expect(object["http.request.method"] as? String == "GET")
        #expect(object["url.scheme"] as? String == "http")
        #expect(object["server.address"] as? String == "localhost")
        #expect(object["url.path"] as? String == "/users")
        #expect(object["url.query"] as? String == "q=ann&token=[REDACTED]")
        #expect(object["http.response.status_code"] as? Int == 503)
        #expect(object["http.request.body.size"] as? Int == 0)
        #expect(object["http.response.body.size"] as? Int == 19)
        #expect(object["faultline.duration.connect"] as? Double == 1.5)
        #expect(object["faultline.duration.tls"] as? Double == 2)
        #expect(object["faultline.duration.first_byte"] as? Double == 10.25)
        #expect(object["faultline.duration.total"] as? Double == 12.345)
        #expect(object["faultline.upstream"] as? String == "staging")
        #expect(object["faultline.route"] as? String == "search")
        #expect(object["faultline.fault"] as? [String] == ["search/status"])
        #expect(object["faultline.pin.result"] as? String == "match")
        #expect(object["faultline.redacted"] as? [String] == ["request.query.token"])
        let text = String(decoding: line, as: UTF8.self)
        #expect(text.hasPrefix(#"{"time":"2026-11-29T15:00:00.123Z","kind":"exchange","request.id":"#))
    }

    @Test func jsonEscapesControlCharactersAndInvalidBytes() throws {
        var record = LogRecord(kind: .error)
        var evil: [UInt8] = Array("a\"b\\c\n\r\t\u{1B}[31m\u{7F}\u{2028}é".utf8)
        evil += [0xFF, 0xC3]
        record.setMessage(String(decoding: evil, as: UTF8.self), policy: policy)
        record.setTarget("/p\u{0}ath?x=\u{1}", policy: policy)
        let line = JSONLineEncoder.encode(record)
        #expect(!line.dropLast().contains { $0 < 0x20 })
        let object = try JSONObject.parse(line)
        #expect(object["faultline.message"] as? String == "a\"b\\c\n\r\t\u{1B}[31m\u{7F}\u{2028}é\u{FFFD}\u{FFFD}")
        #expect(object["url.path"] as? String == "/p\u{0}ath")
    }

    /// Every byte that must be escaped, at every position of the eight-byte words the writer
    /// checks at once and in the tail after them, round-trips through a JSON parser.
    @Test(arguments: [UInt64(11), 0xC0FFEE])
    func everyEscapedCharacterAtEveryPositionRoundTrips(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let specials: [String] = ["\"", "\\", "\n", "\r", "\t", "\u{0}", "\u{1F}", "\u{7F}", "\u{2028}", "\u{2029}", "é", "€"]
        let wide = LogPolicy(options: LogOptions(headers: true, bodies: true, headerValueMaxBytes: 10_000, bodyMaxBytes: 10_000))
        for length in 0..<40 {
            for special in specials {
                let position = length == 0 ? 0 : Int.random(in: 0...length, using: &random)
                let plain = String(repeating: "a", count: length)
                let value = String(plain.prefix(position)) + special + String(plain.dropFirst(position))
                var record = LogRecord(kind: .error)
                record.route = value
                record.setMessage(plain + " ~ ", policy: wide)
                let object = try JSONObject.parse(JSONLineEncoder.encode(record))
                #expect(object["faultline.route"] as? String == value, "seed \(seed) length \(length) position \(position)")
                #expect(object["faultline.message"] as? String == plain + " ~ ", "seed \(seed) length \(length)")
            }
        }
    }

    /// Values around the longest one written in one piece with its key, and a line far past
    /// the writer's first buffer, come out whole and in order.
    @Test func longValuesAndLongLinesComeOutWhole() throws {
        let options = LogOptions(headers: true, bodies: true, headerValueMaxBytes: 100_000, bodyMaxBytes: 100_000)
        let wide = LogPolicy(options: options)
        for length in [0, 1, 511, 512, 513, 4_000] {
            var record = sample()
            record.route = String(repeating: "r", count: length)
            record.upstream = String(repeating: "u", count: length) + "\u{2028}\""
            record.setMessage(String(repeating: "m", count: length), policy: wide)
            let object = try JSONObject.parse(JSONLineEncoder.encode(record))
            #expect(object["faultline.route"] as? String == String(repeating: "r", count: length), "length \(length)")
            #expect(object["faultline.upstream"] as? String == String(repeating: "u", count: length) + "\u{2028}\"")
            #expect(object["faultline.message"] as? String == String(repeating: "m", count: length))
            #expect(object["faultline.duration.total"] as? Double == 12.345)
        }
    }

    /// Copies of a record share their fields until one changes: the change never shows in
    /// the other copy (the HAR capture and the dashboard keep copies of the log's record).
    @Test func aCopyKeepsItsFieldsWhenTheOriginalChanges() {
        var record = sample()
        let kept = record
        record.route = "changed"
        record.faults.append("other/reset")
        record.addHeader(name: "X-Late", value: "1", direction: .request, policy: policy)
        #expect(kept.route == "search")
        #expect(kept.faults == ["search/status"])
        #expect(kept.requestHeaders.isEmpty)
        #expect(record.route == "changed")
        #expect(record.faults == ["search/status", "other/reset"])
        #expect(record.requestHeaders.map(\.name) == ["x-late"])
    }

    /// A head's fields added as bytes make the same record as the same fields added as
    /// Strings: names, redaction, the value cap and the per-message cap.
    @Test func headersAddedAsBytesMatchHeadersAddedAsStrings() {
        let capped = LogPolicy(options: LogOptions(headers: true, headerValueMaxBytes: 16, maxHeaders: 5))
        let fields: [(String, String)] = [
            ("Content-Type", "text/html"), ("Authorization", "Bearer s3cr3t-t0ken"), ("X-Long", String(repeating: "x", count: 40)),
            ("Cookie", "session=abc-123; theme=dark"), ("SERVER", "nginx"), ("Set-Cookie", "id=zz-9; Path=/"), ("ETag", "\"e\""),
        ]
        var fromStrings = LogRecord()
        var fromBytes = LogRecord()
        for (name, value) in fields {
            fromStrings.addHeader(name: name, value: value, direction: .response, policy: capped)
            Array(name.utf8).withUnsafeBytes { name in
                Array(value.utf8).withUnsafeBytes { value in
                    fromBytes.addHeader(name: name, value: value, direction: .response, policy: capped)
                }
            }
        }
        #expect(fromBytes.responseHeaders.map(\.name) == fromStrings.responseHeaders.map(\.name))
        #expect(fromBytes.responseHeaders.map(\.value) == fromStrings.responseHeaders.map(\.value))
        #expect(fromBytes.redacted == fromStrings.redacted)
        #expect(fromBytes.omittedHeaders == 2)
        #expect(fromBytes.responseHeaders.map(\.name) == ["content-type", "authorization", "x-long", "cookie", "server"])
        #expect(!fromBytes.responseHeaders.contains { $0.value.contains("s3cr3t") || $0.value.contains("abc-123") })
    }

    /// A line encoded from a shared record with a scope is the line of the trimmed copy: the
    /// parts left out, and their entries in `faultline.redacted`, are gone in both formats.
    @Test func aScopedLineIsTheLineOfATrimmedCopy() throws {
        var record = sample()
        record.addHeader(name: "Authorization", value: "Bearer t0k3n-x", direction: .request, policy: policy)
        record.addHeader(name: "Cookie", value: "sid=c00k1e-y", direction: .request, policy: policy)
        record.addHeader(name: "Content-Type", value: "application/json", direction: .response, policy: policy)
        record.setBody(Array(#"{"password":"pa55-z"}"#.utf8), contentType: "application/json", direction: .request, policy: policy)
        #expect(record.redacted.contains { $0.contains(".header.") })
        #expect(record.redacted.contains { $0.contains(".body.") })
        for format in [LogFormat.json, .text(colour: false)] {
            for (headers, bodies) in [(true, true), (true, false), (false, true), (false, false)] {
                let scoped = format.encode(record, scope: LogLineScope(headers: headers, bodies: bodies))
                let trimmed = format.encode(record.trimmed(headers: headers, bodies: bodies, bodyMaxBytes: 1 << 20))
                #expect(scoped == trimmed, "\(format) headers \(headers) bodies \(bodies)")
                let text = String(decoding: scoped, as: UTF8.self)
                #expect(text.contains("authorization") == headers)
                #expect(text.contains("password") == bodies)
            }
        }
        let line = try JSONObject.parse(JSONLineEncoder.encode(record, scope: LogLineScope(headers: false, bodies: false)))
        #expect(line["faultline.redacted"] as? [String] == ["request.query.token"])
    }

    @Test func textLineIsReadableAndEscaped() {
        var record = sample()
        record.setError(type: "upstream_reset", message: "reset\nby peer \u{1B}[2J", policy: policy)
        let plain = String(decoding: TextLineEncoder(colour: false).encode(record), as: UTF8.self)
        #expect(plain.hasPrefix("2026-11-29T15:00:00.123Z 127.0.0.1 GET /users?q=ann&token=[REDACTED] → 503 12.3ms route=search"))
        #expect(plain.contains("fault=search/status"))
        #expect(plain.contains(#"error="upstream_reset: reset\nby peer \x1b[2J""#))
        #expect(!plain.contains("\u{1B}"))
        #expect(plain.filter { $0 == "\n" }.count == 1)
        let coloured = String(decoding: TextLineEncoder(colour: true).encode(record), as: UTF8.self)
        #expect(coloured.contains("\u{1B}[31m503\u{1B}[0m"))
        #expect(LogFormat.resolve("auto", isTerminal: false) == .json)
        #expect(LogFormat.resolve("auto", isTerminal: true) == .text(colour: true))
        #expect(LogFormat.resolve("text", isTerminal: false) == .text(colour: false))
    }

    @Test func hugeValuesAreTruncatedWithAMarker() throws {
        var record = LogRecord()
        record.addHeader(name: "X-Big", value: String(repeating: "a", count: 10_064), direction: .request, policy: policy)
        record.addHeader(name: "X-Utf8", value: String(repeating: "é", count: 40), direction: .request, policy: policy)
        let body = Array(String(repeating: "b", count: 12_377).utf8)
        record.setBody(body.prefix(100), totalSize: body.count, contentType: "text/plain", direction: .response, policy: policy)
        record.setBody(Array(#"{"password": "0123456789012345678901234567890123456789"}"#.utf8), contentType: "application/json",
                       direction: .request, policy: policy)
        record.setBody(Array(repeating: 0, count: 10), contentType: "image/png", direction: .request, policy: policy)
        #expect(record.requestHeaders[0].value == String(repeating: "a", count: 64) + "…[truncated 10000 bytes]")
        #expect(record.requestHeaders[1].value == String(repeating: "é", count: 32) + "…[truncated 16 bytes]")
        #expect(record.responseBody == String(repeating: "b", count: 32) + "…[truncated 12345 bytes]")
        #expect(record.requestBody?.hasPrefix(#"{"password": "[REDACTED]"#) == true)
        #expect(record.requestBody?.contains("0123") == false)
        _ = try JSONObject.parse(JSONLineEncoder.encode(record))
    }

    @Test func headersAndBodiesOnlyWhenAsked() {
        let quiet = LogPolicy()
        var record = LogRecord()
        record.addHeader(name: "X-Visible", value: "v", direction: .request, policy: quiet)
        record.setBody(Array("hello".utf8), contentType: "text/plain", direction: .request, policy: quiet)
        #expect(record.requestHeaders.isEmpty)
        #expect(record.requestBody == nil)
    }

    @Test func timestampsAndRequestIDs() {
        #expect(LogTimestamp(seconds: 0).rfc3339 == "1970-01-01T00:00:00.000Z")
        #expect(LogTimestamp(seconds: 951_782_400, nanoseconds: 999_999_999).rfc3339 == "2000-02-29T00:00:00.999Z")
        #expect(LogTimestamp(seconds: 4_102_444_799).rfc3339 == "2099-12-31T23:59:59.000Z")
        #expect(LogTimestamp(seconds: -1).rfc3339 == "1969-12-31T23:59:59.000Z")
        #expect(LogTimestamp(seconds: 253_402_300_799, nanoseconds: 7_000_000).rfc3339 == "9999-12-31T23:59:59.007Z")
        #expect(LogTimestamp(seconds: 253_402_300_800).rfc3339 == "10000-01-01T00:00:00.000Z")
        // Years before 1000 keep four digits; a millisecond under 100 keeps its zeros.
        #expect(LogTimestamp(seconds: -30_610_224_001, nanoseconds: 42_000_000).rfc3339 == "0999-12-31T23:59:59.042Z")
        #expect(LogTimestamp(seconds: -62_135_596_800).rfc3339 == "0001-01-01T00:00:00.000Z")
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let now = LogTimestamp.now()
        let parsed = formatter.date(from: now.rfc3339)
        #expect(parsed.map { abs($0.timeIntervalSince1970 - Double(now.seconds)) < 1 } == true)
        let ids = (0..<1000).map { _ in RequestID.generate() }
        #expect(Set(ids).count == 1000)
        #expect(ids.allSatisfy { $0.count == 16 && $0.allSatisfy(\.isHexDigit) })
        #expect(RequestID.accept("abc-123") == "abc-123")
        #expect(RequestID.accept("bad id\n").count == 16)
        #expect(RequestID.accept(nil).count == 16)
    }
}

/// Keys are unique in every JSON line: repeated things are arrays.
@Suite("Record keys")
struct RecordKeyTests {
    @Test func attributesAreUniqueTypedAndNeverShadowARecordKey() throws {
        let policy = LogPolicy(redactor: Redactor(), options: LogOptions())
        var record = LogRecord(kind: .pin)
        record.pinResult = .match
        record.addAttribute("faultline.pin.candidate", "fail", policy: policy)
        record.addAttribute("faultline.pin.candidate", "pass", policy: policy)
        record.addAttribute("faultline.pin.matched", strings: ["a", "b"], policy: policy)
        record.addAttribute("faultline.pin.chain", objects: [[("position", "leaf"), ("pin-sha256", "p1"), ("position", "dup")],
                                                             [("position", "root"), ("pin-sha256", "p2")]], policy: policy)
        record.addAttribute("kind", "shadow", policy: policy)
        record.addAttribute("http.request.header.x", "shadow", policy: policy)
        let line = String(decoding: JSONLineEncoder.encode(record), as: UTF8.self)
        for key in ["\"kind\":", "\"faultline.pin.candidate\":", "\"faultline.pin.matched\":", "\"faultline.pin.chain\":"] {
            #expect(line.components(separatedBy: key).count == 2, "\(key) once in \(line)")
        }
        #expect(!line.contains("shadow") && !line.contains("dup"), "\(line)")
        let object = try JSONObject.parse(Array(line.utf8))
        #expect(object["faultline.pin.candidate"] as? String == "pass")
        #expect(object["faultline.pin.matched"] as? [String] == ["a", "b"])
        let chain = object["faultline.pin.chain"] as? [[String: String]]
        #expect(chain == [["position": "leaf", "pin-sha256": "p1"], ["position": "root", "pin-sha256": "p2"]], "\(line)")
        let text = String(decoding: TextLineEncoder(colour: false).encode(record), as: UTF8.self)
        #expect(text.contains("position=leaf pin-sha256=p1; position=root pin-sha256=p2"), "\(text)")
    }
}
