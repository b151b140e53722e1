import Foundation

/// Checks a decoded HAR document against the HAR 1.2 structure
/// (http://www.softwareishard.com/blog/har-12-spec/): the required members, their types,
/// and the timing rules. Returns what is wrong, empty when the document is valid.
enum HARValidator {
    static func problems(_ document: [String: Any]) -> [String] {
        var problems: [String] = []
        guard let log = document["log"] as? [String: Any] else { return ["no log object"] }
        if log["version"] as? String != "1.2" { problems.append("log.version is \(log["version"] ?? "absent"), expected \"1.2\"") }
        if let creator = log["creator"] as? [String: Any] {
            if (creator["name"] as? String)?.isEmpty != false { problems.append("log.creator.name missing") }
            if !(creator["version"] is String) { problems.append("log.creator.version missing") }
        } else {
            problems.append("log.creator missing")
        }
        if let pages = log["pages"], !(pages is [Any]) { problems.append("log.pages is not an array") }
        guard let entries = log["entries"] as? [[String: Any]] else { return problems + ["log.entries missing or not an array of objects"] }
        for (index, entry) in entries.enumerated() {
            problems += entryProblems(entry).map { "entries[\(index)]: \($0)" }
        }
        return problems
    }

    static func entries(_ document: [String: Any]) -> [[String: Any]] {
        ((document["log"] as? [String: Any])?["entries"] as? [[String: Any]]) ?? []
    }

    private static func entryProblems(_ entry: [String: Any]) -> [String] {
        var problems: [String] = []
        if let started = entry["startedDateTime"] as? String {
            if date(started) == nil { problems.append("startedDateTime \"\(started)\" is not ISO 8601") }
        } else {
            problems.append("startedDateTime missing")
        }
        let time = number(entry["time"])
        if time == nil || time! < 0 { problems.append("time \(entry["time"] ?? "absent") is not a number ≥ 0") }
        if let request = entry["request"] as? [String: Any] {
            problems += requestProblems(request).map { "request.\($0)" }
        } else {
            problems.append("request missing")
        }
        if let response = entry["response"] as? [String: Any] {
            problems += responseProblems(response).map { "response.\($0)" }
        } else {
            problems.append("response missing")
        }
        if !(entry["cache"] is [String: Any]) { problems.append("cache missing") }
        if let timings = entry["timings"] as? [String: Any] {
            var sum = 0.0
            for name in ["send", "wait", "receive"] {
                guard let value = number(timings[name]), value >= 0 else {
                    problems.append("timings.\(name) \(timings[name] ?? "absent") is not a number ≥ 0")
                    continue
                }
                sum += value
            }
            for name in ["blocked", "dns", "connect", "ssl"] {
                guard let raw = timings[name] else { continue }
                guard let value = number(raw), value >= -1 else {
                    problems.append("timings.\(name) \(raw) is not -1 or a number ≥ 0")
                    continue
                }
                // ssl is included in connect (HAR 1.2), so it is not added again.
                if value > 0 && name != "ssl" { sum += value }
            }
            if let time, abs(sum - time) > 0.01 {
                problems.append("time \(time) is not the sum of the timings \(sum): \(timings)")
            }
        } else {
            problems.append("timings missing")
        }
        return problems
    }

    private static func requestProblems(_ request: [String: Any]) -> [String] {
        var problems: [String] = []
        if (request["method"] as? String)?.isEmpty != false { problems.append("method missing") }
        if let url = request["url"] as? String {
            if URL(string: url)?.scheme == nil { problems.append("url \"\(url)\" is not an absolute URL") }
        } else {
            problems.append("url missing")
        }
        if (request["httpVersion"] as? String)?.isEmpty != false { problems.append("httpVersion missing") }
        problems += pairsProblems(request, "cookies") + pairsProblems(request, "headers") + pairsProblems(request, "queryString")
        if !isInteger(request["headersSize"]) { problems.append("headersSize missing") }
        if !isInteger(request["bodySize"]) { problems.append("bodySize missing") }
        if let post = request["postData"] {
            if let post = post as? [String: Any] {
                if !(post["mimeType"] is String) { problems.append("postData.mimeType missing") }
                if !(post["text"] is String) && !(post["params"] is [Any]) { problems.append("postData has neither text nor params") }
            } else {
                problems.append("postData is not an object")
            }
        }
        return problems
    }

    private static func responseProblems(_ response: [String: Any]) -> [String] {
        var problems: [String] = []
        if !isInteger(response["status"]) { problems.append("status missing") }
        if !(response["statusText"] is String) { problems.append("statusText missing") }
        if !(response["httpVersion"] is String) { problems.append("httpVersion missing") }
        problems += pairsProblems(response, "cookies") + pairsProblems(response, "headers")
        if let content = response["content"] as? [String: Any] {
            if !isInteger(content["size"]) { problems.append("content.size missing") }
            if !(content["mimeType"] is String) { problems.append("content.mimeType missing") }
            if let text = content["text"], !(text is String) { problems.append("content.text is not a string") }
        } else {
            problems.append("content missing")
        }
        if !(response["redirectURL"] is String) { problems.append("redirectURL missing") }
        if !isInteger(response["headersSize"]) { problems.append("headersSize missing") }
        if !isInteger(response["bodySize"]) { problems.append("bodySize missing") }
        return problems
    }

    /// `object[key]` must be an array of objects, each with string `name` and `value`.
    private static func pairsProblems(_ object: [String: Any], _ key: String) -> [String] {
        guard let items = object[key] as? [Any] else { return ["\(key) missing or not an array"] }
        var problems: [String] = []
        for (index, item) in items.enumerated() {
            guard let pair = item as? [String: Any], pair["name"] is String, pair["value"] is String else {
                problems.append("\(key)[\(index)] is not {name, value}: \(item)")
                continue
            }
        }
        return problems
    }

    /// A JSON number.
    static func number(_ value: Any?) -> Double? {
        (value as? NSNumber)?.doubleValue
    }

    private static func isInteger(_ value: Any?) -> Bool {
        guard let number = number(value) else { return false }
        return number == number.rounded()
    }

    static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}
