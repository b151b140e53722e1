import Foundation

/// Runs `Tests/Scripts/h2probe.py`, the frame-level HTTP/2 client, with a JSON scenario and
/// decodes the report it prints. The scenario format is in docs/testing.md ("HTTP/2 test
/// tools"). Blocking: from async code, call it inside `Blocking.run`.
public enum H2Probe {
    /// The probe script.
    public static let script = TestPaths.scripts.appendingPathComponent("h2probe.py").path

    /// Runs the scenario given as JSON text; `timeout` bounds the whole run (each wait in the
    /// scenario has its own, shorter, bound).
    public static func run(json scenario: String, timeout: Duration = .seconds(60)) throws(TestFailure) -> H2ProbeReport {
        let result = try Command.launch([TestPaths.python3, script, "-"], input: scenario, timeout: timeout)
        guard result.status == 0 else {
            throw TestFailure("h2probe exited \(result.status): \(result.error)\nscenario: \(scenario)")
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        do {
            return try decoder.decode(H2ProbeReport.self, from: Data(result.output.utf8))
        } catch {
            throw TestFailure("h2probe report does not decode (\(error)): \(result.output.prefix(2000))\(result.error)")
        }
    }

    /// Runs the scenario given as a JSON-compatible dictionary (`connect`, `settings`,
    /// `actions`, …).
    public static func run(_ scenario: [String: Any], timeout: Duration = .seconds(60)) throws(TestFailure) -> H2ProbeReport {
        guard let data = try? JSONSerialization.data(withJSONObject: scenario) else {
            throw TestFailure("the h2probe scenario is not JSON: \(scenario)")
        }
        return try run(json: String(decoding: data, as: UTF8.self), timeout: timeout)
    }

    /// The `connect` member of a scenario: h2c prior knowledge on `port`, or TLS with ALPN
    /// `h2` verified against `caFile` for `serverName` when `caFile` is given.
    public static func target(port: Int, host: String = "127.0.0.1", caFile: String? = nil,
                              serverName: String = "localhost", alpn: [String] = ["h2"]) -> [String: Any] {
        var target: [String: Any] = ["host": host, "port": port]
        if let caFile {
            target["tls"] = true
            target["ca"] = caFile
            target["server_name"] = serverName
            target["alpn"] = alpn
        }
        return target
    }
}
