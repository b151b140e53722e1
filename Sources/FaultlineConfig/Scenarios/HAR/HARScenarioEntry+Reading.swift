import Foundation

extension HARScenarioEntry {
    /// The entry at `index`, or nil (with a note) when it cannot become a rule: a URL without
    /// a usable path, a method that is not a token.
    static func make(_ entry: HARInput.Entry, index: Int, options: HARScenarioOptions, notes: inout [String]) -> HARScenarioEntry? {
        guard let components = URLComponents(string: entry.request.url) else {
            notes.append("log.entries[\(index)]: skipped: the URL does not parse")
            return nil
        }
        if !options.hosts.isEmpty {
            let host = (components.host ?? "").lowercased()
            guard options.hosts.contains(where: { HARScenarioEntry.glob($0.lowercased(), host) }) else { return nil }
        }
        let method = entry.request.method.uppercased()
        guard HTTPToken.isToken(method) else {
            notes.append("log.entries[\(index)]: skipped: the method \(JSONValue.quoted(entry.request.method)) is not a token")
            return nil
        }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        guard path.hasPrefix("/"), path.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            notes.append("log.entries[\(index)]: skipped: the path is not visible ASCII")
            return nil
        }
        let duration = HARScenarioEntry.duration(entry)
        return HARScenarioEntry(
            index: index, offsetMs: 0, durationMs: duration, method: method, path: path,
            query: HARScenarioEntry.pairs(components.percentEncodedQuery ?? ""),
            jsonMembers: HARScenarioEntry.members(entry.request.postData),
            outcome: HARScenarioEntry.outcome(entry, durationMs: duration, options: options),
            response: entry.response)
    }

    /// `time`, or the sum of the known timings when it is missing or `-1`.
    private static func duration(_ entry: HARInput.Entry) -> Double {
        if let time = entry.time, time.isFinite, time >= 0 { return min(time, 86_400_000) }
        guard let timings = entry.timings else { return 0 }
        let parts = [timings.blocked, timings.dns, timings.connect, timings.send, timings.wait, timings.receive]
        return min(parts.compactMap { $0 }.filter { $0.isFinite && $0 > 0 }.reduce(0, +), 86_400_000)
    }

    private static func outcome(_ entry: HARInput.Entry, durationMs: Double, options: HARScenarioOptions) -> Outcome {
        let milliseconds = max(1, Int(durationMs.rounded()))
        let slow = durationMs >= Double(options.slowMs) ? milliseconds : nil
        let status = entry.response?.status.flatMap { $0.isFinite && $0 >= 0 && $0 < 1000 ? Int($0) : nil } ?? 0
        let error = entry.error?.text ?? entry.response?.error?.text ?? ""
        if status < 100 {
            // No answer: a timeout reproduces as a hang of the time the client waited.
            let upper = error.uppercased()
            return upper.contains("TIMED_OUT") || upper.contains("TIMEOUT") ? .hang(ms: milliseconds) : .reset
        }
        if status >= 500 && status <= 599 || status == 429 || status == 408 { return .status(code: status, slowMs: slow) }
        if let slow, !options.onlyFailures { return .slow(ms: slow) }
        return .passed
    }

    /// `a=1&b&c=%20` → pairs as sent; names that the query matcher cannot take are skipped.
    static func pairs(_ query: String) -> [(name: String, value: String)] {
        query.split(separator: "&", omittingEmptySubsequences: true).compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            guard !name.isEmpty, name.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F && $0 != ";" }) else { return nil }
            let value = parts.count > 1 ? String(parts[1]) : ""
            guard value.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else { return nil }
            return (name, value)
        }
    }

    /// A JSON object body's top-level scalars, as `json` conditions compare them.
    private static func members(_ postData: HARInput.PostData?) -> [String: String] {
        guard let text = postData?.text, !text.isEmpty, text.utf8.count <= Limits().maxMatchBodyBytes,
              let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else { return [:] }
        var members: [String: String] = [:]
        for (key, value) in object {
            guard let text = JSONField.scalarText(value) else { continue }
            let token = key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
            members["/" + token] = text
        }
        return members
    }

    /// `*` matches any run of characters; everything else literally.
    static func glob(_ pattern: String, _ text: String) -> Bool {
        Array(text.utf8).withUnsafeBytes { input in
            Array(pattern.utf8).withUnsafeBytes { ByteMatch.glob(input, $0, questionMarkIsWildcard: false) }
        }
    }
}
