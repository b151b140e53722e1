import Foundation

/// `faultline scenario start|status|stop`: drives the scenarios of a running proxy through
/// its admin API, globally or in one session.
struct ScenarioControlCommand {
    let client: RulesCommandClient
    let json: Bool
    /// `""` for the global scenarios, `/sessions/{id}` for a session's.
    let prefix: String

    static func main(_ subcommand: String, _ arguments: [String]) -> ExitStatus {
        let command: ScenarioControlCommand
        let operands: [String]
        do {
            let parsed = try Arguments(arguments, valued: ["admin", "token", "format", "timeout-ms", "session"], flags: ["help"])
            if parsed.flags.contains("help") {
                Console.out(ScenarioCommand.usage)
                return .ok
            }
            let session = try RulesCommandSession(parsed)
            if let id = parsed["session"], id.isEmpty { throw UsageError("--session expects a session id") }
            command = ScenarioControlCommand(client: session.client, json: session.json,
                                             prefix: parsed["session"].map { "/sessions/\(RulesCommandSession.escape($0))" } ?? "")
            operands = parsed.positionals
            let expected = subcommand == "status" ? 0...1 : 1...1
            guard expected.contains(operands.count) else {
                throw UsageError("\(subcommand) expects \(subcommand == "start" ? "a scenario FILE" : subcommand == "stop" ? "a scenario NAME" : "at most a NAME"), got \(operands.isEmpty ? "none" : operands.joined(separator: " "))")
            }
        } catch {
            Console.err("faultline scenario \(subcommand): \(error)\n\n\(ScenarioCommand.usage)")
            return .usage
        }
        switch subcommand {
        case "start": return command.start(operands[0])
        case "stop": return command.stop(operands[0])
        default: return command.status(operands.first)
        }
    }

    /// Defines the scenario of `source` (a file, or - for standard input) and starts it.
    func start(_ source: String) -> ExitStatus {
        let body: Data
        if source == "-" {
            // readToEnd throws where readDataToEndOfFile would trap (a read a signal interrupts).
            do { body = try FileHandle.standardInput.readToEnd() ?? Data() } catch {
                Console.err("faultline scenario start: cannot read standard input: \(error)")
                return .failure
            }
        } else if let data = FileManager.default.contents(atPath: source) {
            body = data
        } else {
            Console.err("faultline scenario start: \(source): no such file")
            return .failure
        }
        guard let defined = call("POST", "\(prefix)/scenarios", body: body, quiet: true) else { return .failure }
        guard let name = defined["name"] as? String else {
            Console.err("faultline scenario start: the admin API answered without a scenario name")
            return .failure
        }
        guard let started = call("POST", "\(prefix)/scenarios/\(RulesCommandSession.escape(name))/start") else { return .failure }
        if !json { Console.out("started scenario \(name): " + Self.describe(started)) }
        return .ok
    }

    /// Stops the scenario `name`.
    func stop(_ name: String) -> ExitStatus {
        guard call("POST", "\(prefix)/scenarios/\(RulesCommandSession.escape(name))/stop") != nil else { return .failure }
        if !json { Console.out("stopped scenario \(name)") }
        return .ok
    }

    /// Every scenario (or `name`'s): state, phase, and the time or requests left.
    func status(_ name: String?) -> ExitStatus {
        let path = name.map { "\(prefix)/scenarios/\(RulesCommandSession.escape($0))" } ?? "\(prefix)/scenarios"
        guard let answer = call("GET", path) else { return .failure }
        guard !json else { return .ok }
        let scenarios = name == nil ? (answer["scenarios"] as? [[String: Any]] ?? []) : [answer]
        if scenarios.isEmpty { Console.out("no scenarios" + (prefix.isEmpty ? "" : " in this session")) }
        for scenario in scenarios {
            Console.out("\(scenario["name"] as? String ?? "?"): " + Self.describe(scenario))
        }
        return .ok
    }

    /// One line: "running, phase 2/3 "slow", 1200 ms left" and the like.
    static func describe(_ scenario: [String: Any]) -> String {
        let state = scenario["state"] as? String ?? "?"
        let count = (scenario["phases"] as? [Any])?.count ?? 0
        guard let current = scenario["current"] as? [String: Any], let index = current["index"] as? Int else { return state }
        var line = "\(state), phase \(index + 1)/\(count)"
        if let name = current["name"] as? String { line += " \"\(name)\"" }
        if let cycle = current["cycle"] as? Int, cycle > 0 { line += " (cycle \(cycle + 1))" }
        if let left = current["ms_left"] as? Int {
            line += ", \(left) ms left"
        } else if let left = current["requests_left"] as? Int {
            line += ", \(left) request\(left == 1 ? "" : "s") left"
        } else {
            line += ", until stopped"
        }
        return line
    }

    /// Sends a request; the answer's JSON object on success (printed as is with --format
    /// json unless `quiet`), nil after printing the refusal or the failure.
    private func call(_ method: String, _ path: String, body: Data? = nil, quiet: Bool = false) -> [String: Any]? {
        let response: RulesCommandClient.Response
        do {
            response = try client.send(method, path, body: body)
        } catch {
            Console.err("faultline scenario: \(error)")
            return nil
        }
        guard (200..<300).contains(response.status) else {
            if json {
                Console.err(String(decoding: response.body, as: UTF8.self))
            } else {
                let answer = AdminAnswer(decoding: response.body)
                Console.err("faultline scenario: \(answer.error ?? "the admin API answered \(response.status)")")
                for error in (answer.errors ?? []).dropFirst() {
                    Console.err("  \(error.field ?? ""): \(error.message ?? "")")
                }
            }
            return nil
        }
        if json && !quiet && !response.body.isEmpty {
            Console.out(String(decoding: response.body, as: UTF8.self).trimmingCharacters(in: .newlines))
        }
        return ((try? JSONSerialization.jsonObject(with: response.body)) as? [String: Any]) ?? [:]
    }
}
