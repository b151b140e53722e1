import FaultlineConfig

/// Scenarios, global (`/scenarios`) or a session's (`/sessions/{id}/scenarios`): define,
/// list, show, start, stop, delete. The same handlers serve both through the board.
extension AdminRouter {
    /// `/scenarios[/{name}[/start|/stop]]`; `rest` is what follows `scenarios`.
    func scenarios(_ method: String, _ rest: [String], _ request: AdminRequest, board: ScenarioBoard) -> AdminResponse {
        let now = MonotonicClock.nanoseconds()
        switch (method, rest.count, rest.dropFirst().first) {
        case ("GET", 0, _):
            return .json(200, AdminBody.Scenarios(scenarios: board.slots.map { ScenarioJSON($0, now: now) }))
        case ("POST", 0, _):
            return defineScenario(request.body, board: board, now: now)
        case (_, 0, _):
            return notAllowed(request, "GET, POST")
        case ("GET", 1, _):
            return showScenario(rest[0], board: board, status: 200, now: now)
        case ("DELETE", 1, _):
            do throws(AdminRefusal) {
                try board.remove(rest[0])
            } catch {
                return error.response
            }
            return AdminResponse(status: 204, body: [])
        case (_, 1, _):
            return notAllowed(request, "GET, DELETE")
        case ("POST", 2, let action?) where action == "start" || action == "stop":
            do throws(AdminRefusal) {
                if action == "start" { try board.start(rest[0], now: now) } else { try board.stop(rest[0]) }
            } catch {
                return error.response
            }
            return showScenario(rest[0], board: board, status: 200, now: MonotonicClock.nanoseconds())
        case (_, 2, let action?) where action == "start" || action == "stop":
            return notAllowed(request, "POST")
        default:
            return notFound(request)
        }
    }

    private func defineScenario(_ body: [UInt8], board: ScenarioBoard, now: UInt64) -> AdminResponse {
        let scenario: ScenarioConfig
        do {
            scenario = try ScenarioConfig.load(json: body, upstreams: server.snapshot.config.upstreams, allowStart: true)
        } catch {
            return AdminRefusal(invalid: error).response
        }
        let created: Bool
        do throws(AdminRefusal) {
            created = try board.define(scenario, now: now)
        } catch {
            return error.response
        }
        return showScenario(scenario.name, board: board, status: created ? 201 : 200, now: MonotonicClock.nanoseconds())
    }

    private func showScenario(_ name: String, board: ScenarioBoard, status: Int, now: UInt64) -> AdminResponse {
        guard let slot = board.slots.first(where: { $0.config.name == name }) else {
            let known = board.slots.map(\.config.name)
            return AdminRefusal(404, "no scenario \(JSONText.quoted(name)) (known: \(known.isEmpty ? "none" : known.joined(separator: ", ")))")
                .response
        }
        return .json(status, ScenarioJSON(slot, now: now))
    }
}
