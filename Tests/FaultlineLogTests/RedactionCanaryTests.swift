import FaultlineTestSupport
import Foundation
import Testing
import FaultlineLog
import FaultlineConfig

/// Distinct secret values through every path; none may reach any encoded output, while
/// their non-secret neighbours must.
@Suite("Redaction canaries")
struct RedactionCanaryTests {
    private final class Canaries {
        var all: [String] = []
        func next(_ label: String) -> String {
            let value = "CANARY\(all.count)x\(label.filter { $0.isLetter || $0.isNumber })Zq"
            all.append(value)
            return value
        }
    }

    private let visible = [
        "visible-user", "visible-q", "visible-header", "visible-trace", "/visible-path", "visible-form",
        "visible-error-host", "theme", "session", "HttpOnly", "Max-Age=60", "Bearer", "visible-pin-message",
        "example.com", "visible-nested",
    ]

    @Test func noCanaryReachesAnyOutput() throws {
        let config = try ConfigLoader.parse(Data(configWithLog(#"""
            {"headers": true, "bodies": true,
             "redact": {"headers": ["X-My-Custom"], "headers_keep": ["x-session-trace"], "body_fields": ["pin_code"]}}
            """#).utf8), file: nil)
        let policy = LogPolicy(config: config.log)
        let canary = Canaries()
        var records: [LogRecord] = []

        var exchange = LogRecord(kind: .exchange, requestID: RequestID.generate())
        exchange.clientAddress = "127.0.0.1"
        exchange.method = "POST"
        var query = "q=visible-q"
        for name in RedactionDefaults.queryParameters { query += "&\(name)=\(canary.next(name))" }
        query += "&%61ccess%5Ftoken=\(canary.next("encoded"))&ACCESS_TOKEN=\(canary.next("upper"))"
        exchange.setTarget("https://alice:\(canary.next("userinfo"))@api.example.com/users?\(query)", policy: policy)
        for name in RedactionDefaults.headers where !name.hasSuffix("cookie") {
            exchange.addHeader(name: name.uppercased(), value: "Bearer \(canary.next(name))", direction: .request, policy: policy)
            exchange.addHeader(name: name, value: canary.next(name), direction: .response, policy: policy)
        }
        for name in ["X-My-Custom", "X-Refresh-Token-Id", "X-Client-Secret", "X-User-Password", "X-Partner-Api-Key",
                     "X-Apikey", "X-Session-Id", "Sessionid"] {
            exchange.addHeader(name: name, value: canary.next(name), direction: .request, policy: policy)
        }
        exchange.addHeader(name: "X-Visible", value: "visible-header", direction: .request, policy: policy)
        exchange.addHeader(name: "X-Session-Trace", value: "visible-trace", direction: .request, policy: policy)
        exchange.addHeader(name: "Cookie", value: "session=\(canary.next("c1")); theme=\(canary.next("c2"))", direction: .request, policy: policy)
        exchange.addHeader(
            name: "Set-Cookie", value: "session=\(canary.next("sc")); Path=/visible-path; Max-Age=60; HttpOnly; Secure",
            direction: .response, policy: policy)
        exchange.addHeader(name: "Location", value: "https://example.com/cb?code=\(canary.next("loc"))#access_token=\(canary.next("frag"))",
                           direction: .response, policy: policy)
        let json = #"{"user": "visible-user", "nested": {"deep": [{"password": "\#(canary.next("pw"))", "x": "visible-nested"}]},"#
            + #" "client_secret": "\#(canary.next("cs"))", "accessToken": "\#(canary.next("camel"))", "pin_code": \#(canary.next("num").count),"#
            + #" "authorization": {"scheme": "\#(canary.next("obj"))"}, "card_number": "\#(canary.next("card"))"}"#
        exchange.setBody(Array(json.utf8), contentType: "application/json; charset=utf-8", direction: .request, policy: policy)
        let badJSON = #"{"user": "visible-user", "token": "\#(canary.next("bad")), "refresh_token":"\#(canary.next("trunc"))"#
        exchange.setBody(Array(badJSON.utf8), contentType: "application/problem+json", direction: .response, policy: policy)
        exchange.setError(type: "upstream_connect", message: "connect to https://bob:\(canary.next("err-userinfo"))@visible-error-host failed;"
            + " Authorization: Bearer \(canary.next("err-bearer")); token=\(canary.next("err-token")) refresh_token: \"\(canary.next("err-rt"))\"",
            policy: policy)
        records.append(exchange)

        var form = LogRecord()
        form.setTarget("/oauth/token", policy: policy)
        let formBody = "grant_type=visible-form&code=\(canary.next("fcode"))&client_secret=\(canary.next("fcs"))&pass%77ord=\(canary.next("fpw"))"
        form.setBody(Array(formBody.utf8), contentType: "application/x-www-form-urlencoded", direction: .request, policy: policy)
        form.setBody(Array("debug: api_key=\(canary.next("txt")) visible-form".utf8), contentType: "text/plain", direction: .response, policy: policy)
        records.append(form)

        var pin = LogRecord(kind: .pin)
        pin.pinResult = .mismatch
        pin.setMessage("visible-pin-message via https://u:\(canary.next("pin"))@example.com", policy: policy)
        pin.addAttribute("faultline.detail", "secret=\(canary.next("attr"))", policy: policy)
        records.append(pin)

        // Every encoder, and a real file sink.
        let scratch = try TemporaryDirectory(prefix: "faultline-log")
        defer { scratch.remove() }
        let sink = try LogSink(destination: .file(path: scratch.path + "/logs/canary.jsonl"), format: "json")
        var outputs: [String] = []
        for record in records {
            outputs.append(String(decoding: JSONLineEncoder.encode(record), as: UTF8.self))
            outputs.append(String(decoding: TextLineEncoder(colour: true).encode(record), as: UTF8.self))
            outputs.append(String(decoding: TextLineEncoder(colour: false).encode(record), as: UTF8.self))
            outputs.append("\(record)")
            #expect(sink.write(record))
        }
        #expect(sink.close(timeout: 5))
        outputs.append(try String(contentsOfFile: scratch.path + "/logs/canary.jsonl", encoding: .utf8))
        let everything = outputs.joined(separator: "\n")
        for secret in canary.all {
            #expect(!everything.contains(secret), "canary \(secret) leaked")
        }
        for neighbour in visible {
            #expect(everything.contains(neighbour), "neighbour \(neighbour) missing")
        }
        for line in outputs.last?.split(separator: "\n") ?? [] {
            _ = try JSONObject.parse(Array(line.utf8))
        }
        let redacted = Set(records.flatMap(\.redacted))
        for field in ["request.header.authorization", "response.header.x-api-key", "request.query.token",
                      "request.query.access_token", "request.url.userinfo", "request.cookie.session", "response.cookie.session",
                      "request.body.password", "request.body.pin_code", "response.body.refresh_token", "request.body.code",
                      "error.userinfo", "error.bearer", "error.token", "message.userinfo", "request.header.x-my-custom",
                      "response.header.location.query.code", "response.header.location.fragment.access_token"] {
            #expect(redacted.contains(field), "\(field) not listed in \(redacted.sorted())")
        }
    }
}

extension RedactionCanaryTests {
    /// the positions the name lists alone missed, through every encoder
    /// and the HAR document: an echoed request under JSON keys that are header names, query
    /// secrets in JSON strings, JSON in JSON strings, odd names in query, form, JSON and text,
    /// and a session in a path parameter.
    @Test func echoedAndOddlyNamedSecretsReachNoOutput() throws {
        let policy = LogPolicy(config: try ConfigLoader.parse(Data(configWithLog(#"{"headers": true, "bodies": true}"#).utf8), file: nil).log)
        let canary = Canaries()
        let odd = ["auth_token", "session_token", "jwt", "secret", "new_password", "newPassword", "otp", "private_key",
                   "passcode", "token[]", "token%00", "Token%5B0%5D"]
        var record = LogRecord(kind: .exchange, requestID: "rid-odd")
        record.method = "POST"
        record.setTarget("/app;jsessionid=\(canary.next("path"))/echo?" + odd.map { "\($0)=\(canary.next($0))" }.joined(separator: "&")
                         + "&q=visible-q", policy: policy)
        let form = odd.map { "\($0)=\(canary.next("form-\($0)"))" }.joined(separator: "&") + "&user=visible-user"
        record.setBody(Array(form.utf8), contentType: "application/x-www-form-urlencoded", direction: .request, policy: policy)
        var members = [#""headers": {"Cookie": "session=\#(canary.next("cookie"))", "X-Api-Key": "\#(canary.next("key"))", "#
            + #""Proxy-Authorization": "Basic \#(canary.next("basic"))", "Accept": "visible-accept"}"#]
        members.append(#""url": "https://h/p?access_token=\#(canary.next("url"))&x=visible-x""#)
        members.append(#""data": "{\"password\": \"\#(canary.next("embedded"))\", \"note\": \"visible-note\"}""#)
        for name in odd where !name.contains("%") { members.append(#""\#(name)": "\#(canary.next("json-\(name)"))""#) }
        record.setBody(Array(("{" + members.joined(separator: ", ") + "}").utf8), contentType: "application/json",
                       direction: .response, policy: policy)
        var text = LogRecord(kind: .exchange, requestID: "rid-text")
        text.setBody(Array("jwt=\(canary.next("t1")) token[]=\(canary.next("t2")) see https://h/?otp=\(canary.next("t3")) <passcode>\(canary.next("t4"))</passcode> visible-text".utf8),
                     contentType: "text/plain", direction: .response, policy: policy)
        let records = [record, text]

        var outputs = records.flatMap { record in
            [JSONLineEncoder.encode(record), TextLineEncoder(colour: false).encode(record)].map { String(decoding: $0, as: UTF8.self) }
        }
        outputs.append(String(decoding: HARDocumentEncoder.encode(records, creatorVersion: "test"), as: UTF8.self))
        let everything = outputs.joined(separator: "\n")
        for secret in canary.all {
            #expect(!everything.contains(secret), "canary \(secret) leaked")
        }
        for neighbour in ["visible-q", "visible-user", "visible-accept", "visible-x", "visible-note", "visible-text", "/app;jsessionid="] {
            #expect(everything.contains(neighbour), "neighbour \(neighbour) missing")
        }
        #expect(record.redacted.contains("request.path.jsessionid"), "\(record.redacted)")
    }
}
