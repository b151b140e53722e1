import Foundation
import FaultlineTestSupport

/// Traffic log records (JSON Lines) as tests read them: from a log file, or from the lines
/// a process printed (stdout and stderr merged, so only lines that parse as a JSON object
/// count as records).
enum LogFile {
    /// The file's whole text ("" while it does not exist).
    static func text(_ path: String) -> String {
        guard let data = FileManager.default.contents(atPath: path) else { return "" }
        return String(decoding: data, as: UTF8.self)
    }

    /// The file's complete lines (an unterminated last line, still being written, is left out).
    static func lines(_ path: String) -> [String] {
        let text = text(path)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // After the last "\n" there is "" or a partial line: drop it either way.
        lines.removeLast()
        return lines
    }

    /// Every line of the file parsed as a JSON object (nil for a line that does not parse).
    static func parsedLines(_ path: String) -> [[String: Any]?] {
        lines(path).map(parse)
    }

    /// The records of the file: the lines that parse as JSON objects.
    static func records(_ path: String) -> [[String: Any]] {
        parsedLines(path).compactMap { $0 }
    }

    /// The records among a process's output lines.
    static func records(in output: OutputLog) -> [[String: Any]] {
        output.lines.compactMap { $0.text.hasPrefix("{") ? parse($0.text) : nil }
    }

    static func parse(_ line: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }

    /// Waits until `records()` holds an exchange record for every id of `ids`; returns all records.
    static func waitForExchanges(_ ids: [String], timeout: Duration = .seconds(10),
                                 _ records: () -> [[String: Any]]) async throws -> [[String: Any]] {
        var latest: [[String: Any]] = []
        do {
            return try await Deadline.poll("exchange records for \(ids)", timeout: timeout) { () -> [[String: Any]]? in
                latest = records()
                let seen = Set(latest.filter { $0.kind == "exchange" }.compactMap { $0.requestID })
                return ids.allSatisfy(seen.contains) ? latest : nil
            }
        } catch {
            let seen = Set(latest.filter { $0.kind == "exchange" }.compactMap { $0.requestID })
            throw TestFailure("\(error); missing: \(ids.filter { !seen.contains($0) }); ids seen: \(seen.sorted())")
        }
    }

    /// Waits until the file holds an exchange record for every id of `ids`.
    static func waitForExchanges(_ ids: [String], in path: String, timeout: Duration = .seconds(10)) async throws -> [[String: Any]] {
        try await waitForExchanges(ids, timeout: timeout) { records(path) }
    }
}

/// Field access on a decoded record.
extension Dictionary where Key == String, Value == Any {
    var kind: String? { self["kind"] as? String }
    var requestID: String? { self["request.id"] as? String }

    /// The values of a header field (`http.request.header.<name>` / `http.response.header.<name>`).
    func requestHeader(_ name: String) -> [String]? { self["http.request.header.\(name)"] as? [String] }
    func responseHeader(_ name: String) -> [String]? { self["http.response.header.\(name)"] as? [String] }

    /// The record as JSON text, for failure messages.
    var jsonText: String {
        guard let data = try? JSONSerialization.data(withJSONObject: self, options: [.sortedKeys, .withoutEscapingSlashes]) else {
            return "\(self)"
        }
        return String(decoding: data, as: UTF8.self)
    }
}

extension Array where Element == [String: Any] {
    /// The exchange record of request `id`.
    func exchange(_ id: String) -> [String: Any]? {
        first { $0.kind == "exchange" && $0.requestID == id }
    }
}
