import Foundation

/// Scenarios scoped to the session: parallel tests each run their own timeline, which ends
/// with the session.
extension FaultlineSession {
    /// Defines `scenario` in the session and starts it at its first phase (replacing a
    /// stopped one of the same name). Throws `refused` with the proxy's field path when it is
    /// invalid, or when one of that name runs.
    @discardableResult
    public func scenario(_ scenario: Scenario) async throws -> ScenarioStatus {
        guard case .object(var fields) = scenario.json else { return try await scenarioStatus(scenario.name) }
        fields["start"] = .bool(true)
        let answer = try await scenarioCall("POST", ["scenarios"], body: .object(fields))
        return try admin.decode(ScenarioStatus.self, answer)
    }

    /// Defines the scenario in the file at `url` (the format `faultline scenario from-har`
    /// writes, and docs/scenarios.md describes) in the session and starts it. Throws
    /// `unreadableScenario` when the file cannot be read or is not a JSON object, and
    /// `refused` with the proxy's field path when the scenario is invalid.
    @discardableResult
    public func scenario(contentsOf url: URL) async throws -> ScenarioStatus {
        let fields: [String: JSONValue]
        do {
            guard case .object(let object) = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: url)) else {
                throw FaultlineError.unreadableScenario(path: url.path, reason: "expected a JSON object")
            }
            fields = object
        } catch let error as FaultlineError {
            throw error
        } catch {
            throw FaultlineError.unreadableScenario(path: url.path, reason: "\(error)")
        }
        var started = fields
        started["start"] = .bool(true)
        return try admin.decode(ScenarioStatus.self, try await scenarioCall("POST", ["scenarios"], body: .object(started)))
    }

    /// Where the session's scenario `name` stands.
    public func scenarioStatus(_ name: String) async throws -> ScenarioStatus {
        try admin.decode(ScenarioStatus.self, try await scenarioCall("GET", ["scenarios", name]))
    }

    /// Stops the session's scenario `name`: its rules leave effect at once.
    public func stopScenario(_ name: String) async throws {
        try await scenarioCall("POST", ["scenarios", name, "stop"])
    }

    /// Waits until the session's scenario `name` is in phase `index` (0-based), polling its
    /// status; throws `timedOut` after `timeout`.
    @discardableResult
    public func waitForPhase(_ index: Int, of name: String, timeout: Duration = .seconds(30)) async throws -> ScenarioStatus {
        let clock = ContinuousClock()
        let end = clock.now + timeout
        while true {
            let status = try await scenarioStatus(name)
            if status.current?.index == index { return status }
            guard clock.now < end else {
                throw FaultlineError.phaseNotReached(scenario: name, phase: index, state: status.state, current: status.current?.index,
                                                     waited: timeout)
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    @discardableResult
    private func scenarioCall(_ method: String, _ path: [String], body: JSONValue? = nil) async throws -> AdminClient.Answer {
        let answer = try await admin.send(method, ["sessions", id] + path, body: body)
        guard (200...299).contains(answer.status) else {
            if answer.status == 404 && answer.text.contains(id) { throw FaultlineError.sessionEnded(id: id) }
            throw AdminClient.refusal(answer)
        }
        return answer
    }
}
