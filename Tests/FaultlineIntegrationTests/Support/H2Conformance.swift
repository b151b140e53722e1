import Foundation
import FaultlineTestSupport

/// Runs `Tests/Scripts/h2conformance.py`, the project's own HTTP/2 conformance cases, against
/// one listener and decodes its report (docs/testing.md, "The HTTP/2 conformance suite").
/// Blocking: from async code, call it inside `Blocking.run`.
enum H2Conformance {
    /// One case's outcome.
    struct Case: Decodable, Sendable {
        let id: String
        let section: String
        let name: String
        let expected: String
        let passed: Bool
        let actual: String
        let ms: Double

        /// The line a failing case is reported with.
        func failure(on listener: String) -> String {
            "[\(listener)] \(id) \(name): expected \(expected); got \(actual)"
        }
    }

    /// The run's report.
    struct Report: Decodable, Sendable {
        let listener: String
        let passed: Int
        let failed: Int
        let elapsedMs: Double
        let cases: [Case]

        func cases(in section: String) -> [Case] { cases.filter { $0.section == section } }
        func outcome(_ id: String) -> Case? { cases.first { $0.id == id } }
    }

    static let script = TestPaths.scripts.appendingPathComponent("h2conformance.py").path

    /// Runs the cases (those of `only`'s sections or ids, else all) against `target`, an
    /// `H2Probe.target` dictionary; `timeout` bounds the whole run.
    static func run(target: [String: Any], only: [String] = [], timeout: Duration = .seconds(90)) throws(TestFailure) -> Report {
        guard let data = try? JSONSerialization.data(withJSONObject: target) else {
            throw TestFailure("the target is not JSON: \(target)")
        }
        let filter = only.isEmpty ? [] : ["--only", only.joined(separator: ",")]
        let result = try Command.launch([TestPaths.python3, script, String(decoding: data, as: UTF8.self)] + filter, timeout: timeout)
        guard result.status == 0 else {
            throw TestFailure("h2conformance exited \(result.status): \(result.error)")
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        do {
            return try decoder.decode(Report.self, from: Data(result.output.utf8))
        } catch {
            throw TestFailure("h2conformance report does not decode (\(error)): \(result.output.prefix(2000))\(result.error)")
        }
    }
}

/// A target dictionary handed to a blocking run: JSON-compatible values only, never mutated.
struct H2ConformanceTarget: @unchecked Sendable {
    let value: [String: Any]
}
