import Foundation
import Testing
import FaultlineLog
import FaultlineTestSupport

@Suite("HAR capture")
struct HARCaptureTests {
    private let policy = LogPolicy(options: LogOptions(headers: true, bodies: true))

    /// An exchange built the way the proxy builds one.
    private func exchange(_ id: String = "abc", target: String = "/search?q=shoes&access_token=SECRET") -> LogRecord {
        var record = LogRecord(kind: .exchange, time: LogTimestamp(seconds: 1_795_964_400, nanoseconds: 250_000_000), requestID: id)
        record.clientAddress = "127.0.0.1"
        record.protocolVersion = "1.1"
        record.method = "POST"
        record.scheme = "https"
        record.host = "api.example.com"
        record.serverPort = 8443
        record.setTarget(target, policy: policy)
        record.addHeader(name: "Content-Type", value: "application/json", direction: .request, policy: policy)
        record.addHeader(name: "Authorization", value: "Bearer SECRET-AUTH", direction: .request, policy: policy)
        record.addHeader(name: "Cookie", value: "session=SECRET-COOKIE; theme=dark", direction: .request, policy: policy)
        record.setBody(Array(#"{"user": "ann", "password": "SECRET-BODY"}"#.utf8), contentType: "application/json",
                       direction: .request, policy: policy)
        record.statusCode = 302
        record.addHeader(name: "Content-Type", value: "text/plain; charset=utf-8", direction: .response, policy: policy)
        record.addHeader(name: "Location", value: "/next", direction: .response, policy: policy)
        record.addHeader(name: "Set-Cookie", value: "sid=SECRET-SETCOOKIE; Path=/; HttpOnly; Secure", direction: .response, policy: policy)
        record.setBody(Array("moved".utf8), contentType: "text/plain", direction: .response, policy: policy)
        record.requestBodySize = 42
        record.responseBodySize = 5
        record.connectMs = 1.5
        record.tlsMs = 2.25
        record.firstByteMs = 10.5
        record.totalMs = 12.75
        record.route = "search"
        record.upstream = "staging"
        record.faults = ["search/status"]
        record.pinResult = .match
        return record
    }

    private func entries(_ capture: HARCapture) throws -> [[String: Any]] {
        let document = try JSONObject.parse(capture.export(creatorVersion: "9.9.9"))
        try validateHAR(document)
        let log = document["log"] as? [String: Any]
        return log?["entries"] as? [[String: Any]] ?? []
    }

    @Test func exportIsAValidHARDocumentWithTheRecordsFields() throws {
        let capture = HARCapture(maxEntries: 10, maxBytes: 1 << 20)
        capture.append(exchange())
        var failed = LogRecord(kind: .exchange, requestID: "down")
        failed.setTarget("/x", policy: policy)
        failed.totalMs = 7
        failed.setError(type: "upstream_connect", message: "connection refused", policy: policy)
        capture.append(failed)

        let bytes = capture.export(creatorVersion: "9.9.9")
        let document = try JSONObject.parse(bytes)
        try validateHAR(document)
        let log = try #require(document["log"] as? [String: Any])
        #expect(log["version"] as? String == "1.2")
        #expect((log["creator"] as? [String: Any])?["version"] as? String == "9.9.9")
        let entries = try #require(log["entries"] as? [[String: Any]])
        #expect(entries.count == 2)

        let entry = entries[0]
        #expect(entry["startedDateTime"] as? String == "2026-11-29T15:00:00.250Z")
        #expect(entry["time"] as? Double == 12.75)
        let request = try #require(entry["request"] as? [String: Any])
        #expect(request["method"] as? String == "POST")
        #expect(request["url"] as? String == "https://api.example.com:8443/search?q=shoes&access_token=[REDACTED]")
        #expect(request["httpVersion"] as? String == "HTTP/1.1")
        #expect(pairs(request["queryString"]) == ["q=shoes", "access_token=[REDACTED]"])
        #expect(pairs(request["cookies"]) == ["session=[REDACTED]", "theme=[REDACTED]"])
        #expect(pairs(request["headers"]).contains("authorization=Bearer [REDACTED]"))
        #expect(request["bodySize"] as? Int == 42)
        let post = try #require(request["postData"] as? [String: Any])
        #expect(post["mimeType"] as? String == "application/json")
        #expect((post["text"] as? String)?.contains(#""user": "ann""#) == true)

        let response = try #require(entry["response"] as? [String: Any])
        #expect(response["status"] as? Int == 302)
        #expect(response["statusText"] as? String == "Found")
        #expect(response["redirectURL"] as? String == "/next")
        #expect(response["bodySize"] as? Int == 5)
        let cookie = try #require((response["cookies"] as? [[String: Any]])?.first)
        #expect(cookie["name"] as? String == "sid" && cookie["value"] as? String == "[REDACTED]")
        #expect(cookie["path"] as? String == "/" && cookie["httpOnly"] as? Bool == true && cookie["secure"] as? Bool == true)
        let content = try #require(response["content"] as? [String: Any])
        #expect(content["mimeType"] as? String == "text/plain; charset=utf-8")
        #expect(content["text"] as? String == "moved" && content["size"] as? Int == 5)

        let timings = try #require(entry["timings"] as? [String: Any])
        #expect(timings["connect"] as? Double == 3.75 && timings["ssl"] as? Double == 2.25)
        #expect(timings["wait"] as? Double == 6.75 && timings["receive"] as? Double == 2.25)
        #expect(timings["blocked"] as? Int == -1 && timings["dns"] as? Int == -1)
        #expect(entry["_requestId"] as? String == "abc" && entry["_route"] as? String == "search")
        #expect(entry["_upstream"] as? String == "staging" && entry["_pinResult"] as? String == "match")
        #expect(entry["_faults"] as? [String] == ["search/status"] && entry["_clientAddress"] as? String == "127.0.0.1")
        #expect((entry["_redacted"] as? [String])?.contains("request.header.authorization") == true)
        #expect(entry["serverIPAddress"] == nil && entry["_error"] == nil)

        // An exchange without a response: defaults everywhere, the error as a custom field.
        let down = entries[1]
        let downRequest = try #require(down["request"] as? [String: Any])
        #expect(downRequest["url"] as? String == "http://localhost/x" && downRequest["method"] as? String == "GET")
        #expect(downRequest["postData"] == nil)
        let downResponse = try #require(down["response"] as? [String: Any])
        #expect(downResponse["status"] as? Int == 0 && downResponse["statusText"] as? String == "")
        #expect(downResponse["bodySize"] as? Int == -1 && downResponse["redirectURL"] as? String == "")
        #expect((downResponse["content"] as? [String: Any])?["text"] == nil)
        let downTimings = try #require(down["timings"] as? [String: Any])
        #expect(downTimings["wait"] as? Double == 7 && downTimings["receive"] as? Double == 0)
        #expect(downTimings["connect"] as? Int == -1 && downTimings["ssl"] as? Int == -1)
        let error = try #require(down["_error"] as? [String: Any])
        #expect(error["type"] as? String == "upstream_connect" && error["message"] as? String == "connection refused")
    }

    @Test func timingsStayConsistentWhenMeasurementsDisagree() throws {
        let capture = HARCapture(maxEntries: 10, maxBytes: 1 << 20)
        var early = LogRecord(kind: .exchange)
        early.connectMs = 5
        early.firstByteMs = 2
        early.totalMs = 4
        capture.append(early)
        var tlsOnly = LogRecord(kind: .exchange)
        tlsOnly.tlsMs = 3
        tlsOnly.firstByteMs = 8
        tlsOnly.totalMs = 10
        capture.append(tlsOnly)
        capture.append(LogRecord(kind: .exchange))
        let all = try entries(capture)
        #expect(all.count == 3)
        let tls = try #require(all[1]["timings"] as? [String: Any])
        #expect(tls["connect"] as? Double == 3 && tls["ssl"] as? Double == 3 && tls["wait"] as? Double == 5)
    }

    @Test func boundedByEntriesOldestEvictedFirst() throws {
        let capture = HARCapture(maxEntries: 3, maxBytes: 1 << 20)
        for index in 0..<10 { capture.append(exchange("r\(index)")) }
        #expect(capture.count == 3)
        #expect(capture.droppedCount == 7)
        #expect(try entries(capture).map { $0["_requestId"] as? String } == ["r7", "r8", "r9"])
        let comment = try JSONObject.parse(capture.export(creatorVersion: "1"))["log"] as? [String: Any]
        #expect((comment?["comment"] as? String)?.hasPrefix("7 earlier") == true)

        capture.setLimits(maxEntries: 1, maxBytes: 1 << 20)
        #expect(capture.count == 1 && capture.droppedCount == 9)
        #expect(try entries(capture).map { $0["_requestId"] as? String } == ["r9"])
        capture.setLimits(maxEntries: 50, maxBytes: 1 << 20)
        for index in 10..<60 { capture.append(exchange("r\(index)")) }
        #expect(try entries(capture).map { $0["_requestId"] as? String } == (10..<60).map { "r\($0)" })
    }

    @Test func boundedByEstimatedBytes() throws {
        let size = HARCapture.estimatedBytes(exchange("r0"))
        #expect(size > 256)
        let capture = HARCapture(maxEntries: 100, maxBytes: size * 3 + size / 2)
        for index in 0..<5 { capture.append(exchange("r\(index)")) }
        #expect(capture.count == 3 && capture.droppedCount == 2)
        #expect(capture.byteCount == size * 3)
        #expect(try entries(capture).map { $0["_requestId"] as? String } == ["r2", "r3", "r4"])

        // A record bigger than the whole limit is not kept and evicts nothing.
        var huge = exchange("huge")
        huge.setBody(Array(repeating: UInt8(ascii: "x"), count: size * 4), contentType: "text/plain",
                     direction: .response, policy: policy)
        capture.append(huge)
        #expect(capture.count == 3 && capture.droppedCount == 3)

        capture.setLimits(maxEntries: 100, maxBytes: size)
        #expect(capture.count == 1 && capture.droppedCount == 5)
        capture.setLimits(maxEntries: 0, maxBytes: 1 << 20)
        capture.append(exchange())
        #expect(capture.count == 0)
    }

    @Test func onlyExchangesAreCaptured() throws {
        let capture = HARCapture(maxEntries: 10, maxBytes: 1 << 20)
        for kind in LogRecordKind.allCases { capture.append(LogRecord(kind: kind, requestID: kind.rawValue)) }
        #expect(capture.count == 1)
        #expect(capture.droppedCount == 0)
        #expect(try entries(capture).map { $0["_requestId"] as? String } == ["exchange"])
    }

    @Test func noCanaryReachesTheExport() throws {
        let capture = HARCapture(maxEntries: 10, maxBytes: 1 << 20)
        capture.append(exchange())
        var form = exchange("form", target: "/login?code=SECRET-CODE&lang=en")
        form.setBody(Array("user=ann&password=SECRET-FORM".utf8), contentType: "application/x-www-form-urlencoded",
                     direction: .request, policy: policy)
        capture.append(form)
        let text = String(decoding: capture.export(creatorVersion: "1"), as: UTF8.self)
        #expect(!text.contains("SECRET"), "a secret leaked into \(text)")
        for neighbour in ["shoes", "session", "theme", "sid", "ann", "lang=en", "Bearer", "access_token", "password"] {
            #expect(text.contains(neighbour), "\(neighbour) missing")
        }
        try validateHAR(try JSONObject.parse(Array(text.utf8)))
    }

    @Test func clearEmptiesTheCapture() throws {
        let capture = HARCapture(maxEntries: 2, maxBytes: 1 << 20)
        for index in 0..<3 { capture.append(exchange("r\(index)")) }
        #expect(capture.clear() == 2)
        #expect(capture.count == 0 && capture.droppedCount == 0 && capture.byteCount == 0)
        #expect(try entries(capture).isEmpty)
        capture.append(exchange("after"))
        #expect(try entries(capture).map { $0["_requestId"] as? String } == ["after"])
    }

    @Test func concurrentAppendsAndExports() throws {
        let capture = HARCapture(maxEntries: 500, maxBytes: 64 << 20)
        let record = exchange()
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for index in 0..<250 {
                capture.append(record)
                if worker == 0, index % 100 == 0 { _ = capture.export(creatorVersion: "1") }
            }
        }
        #expect(capture.count == 500)
        #expect(capture.droppedCount == 1500)
        #expect(try entries(capture).count == 500)
    }

    /// `name=value` of each `{name, value}` object in a HAR list.
    private func pairs(_ list: Any?) -> [String] {
        (list as? [[String: Any]] ?? []).map { "\($0["name"] as? String ?? "?")=\($0["value"] as? String ?? "?")" }
    }
}

/// Checks the HAR 1.2 required structure (log, creator, entries, request, response,
/// content, cache, timings) with its types, and that each entry's time is the sum of its
/// timings.
func validateHAR(_ document: [String: Any]) throws {
    func object(_ value: Any?, _ path: String) throws -> [String: Any] {
        guard let object = value as? [String: Any] else { throw TestFailure("\(path) is not an object") }
        return object
    }
    func string(_ object: [String: Any], _ key: String, _ path: String) throws {
        guard object[key] is String else { throw TestFailure("\(path).\(key) is not a string") }
    }
    func number(_ object: [String: Any], _ key: String, _ path: String, minimum: Double = -1) throws -> Double {
        // JSONSerialization gives booleans their own class; a HAR number must not be one.
        guard let value = object[key] as? Double, !"\(type(of: object[key] as Any))".contains("Boolean") else { throw TestFailure("\(path).\(key) is not a number") }
        guard value >= minimum else { throw TestFailure("\(path).\(key) is \(value), below \(minimum)") }
        return value
    }
    func list(_ parent: [String: Any], _ key: String, _ path: String, nameValue: Bool = false) throws -> [Any] {
        guard let list = parent[key] as? [Any] else { throw TestFailure("\(path).\(key) is not an array") }
        if nameValue {
            for (index, item) in list.enumerated() {
                let pair = try object(item, "\(path).\(key)[\(index)]")
                try string(pair, "name", "\(path).\(key)[\(index)]")
                try string(pair, "value", "\(path).\(key)[\(index)]")
            }
        }
        return list
    }

    let log = try object(document["log"], "log")
    try string(log, "version", "log")
    guard log["version"] as? String == "1.2" else { throw TestFailure("log.version is not 1.2") }
    let creator = try object(log["creator"], "log.creator")
    try string(creator, "name", "log.creator")
    try string(creator, "version", "log.creator")
    if log["pages"] != nil { _ = try list(log, "pages", "log") }
    for (index, item) in try list(log, "entries", "log").enumerated() {
        let path = "log.entries[\(index)]"
        let entry = try object(item, path)
        try string(entry, "startedDateTime", path)
        if let started = entry["startedDateTime"] as? String,
           started.wholeMatch(of: #/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)/#) == nil {
            throw TestFailure("\(path).startedDateTime \(started) is not ISO 8601")
        }
        let time = try number(entry, "time", path, minimum: 0)
        let request = try object(entry["request"], "\(path).request")
        for key in ["method", "url", "httpVersion"] { try string(request, key, "\(path).request") }
        for key in ["cookies", "headers", "queryString"] { _ = try list(request, key, "\(path).request", nameValue: true) }
        _ = try number(request, "headersSize", "\(path).request")
        _ = try number(request, "bodySize", "\(path).request")
        if request["postData"] != nil {
            let post = try object(request["postData"], "\(path).request.postData")
            try string(post, "mimeType", "\(path).request.postData")
            if post["text"] != nil { try string(post, "text", "\(path).request.postData") }
            if post["params"] != nil { _ = try list(post, "params", "\(path).request.postData", nameValue: true) }
        }
        let response = try object(entry["response"], "\(path).response")
        _ = try number(response, "status", "\(path).response", minimum: 0)
        for key in ["statusText", "httpVersion", "redirectURL"] { try string(response, key, "\(path).response") }
        for key in ["cookies", "headers"] { _ = try list(response, key, "\(path).response", nameValue: true) }
        _ = try number(response, "headersSize", "\(path).response")
        _ = try number(response, "bodySize", "\(path).response")
        let content = try object(response["content"], "\(path).response.content")
        _ = try number(content, "size", "\(path).response.content", minimum: 0)
        try string(content, "mimeType", "\(path).response.content")
        if content["text"] != nil { try string(content, "text", "\(path).response.content") }
        _ = try object(entry["cache"], "\(path).cache")
        let timings = try object(entry["timings"], "\(path).timings")
        var sum = 0.0
        for key in ["send", "wait", "receive"] { sum += try number(timings, key, "\(path).timings", minimum: 0) }
        for key in ["blocked", "dns", "connect"] where timings[key] != nil {
            sum += max(0, try number(timings, key, "\(path).timings"))
        }
        if timings["ssl"] != nil {
            let ssl = try number(timings, "ssl", "\(path).timings")
            // HAR counts ssl inside connect.
            if ssl >= 0, (timings["connect"] as? Double ?? -1) < ssl { throw TestFailure("\(path).timings.ssl exceeds connect") }
        }
        guard abs(sum - time) < 0.01 else { throw TestFailure("\(path).timings add up to \(sum), time is \(time)") }
    }
}
