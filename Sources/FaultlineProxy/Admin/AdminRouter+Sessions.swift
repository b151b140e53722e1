import FaultlineConfig
import Foundation

/// Per-test sessions: create, list, show, end, reset, and their rules and journal.
extension AdminRouter {
    /// `/sessions[/{id}[/rules[/{name}]|/reset|/requests]]`.
    func sessions(_ method: String, _ rest: [String], _ request: AdminRequest) -> AdminResponse {
        switch (method, rest.count, rest.dropFirst().first) {
        case ("GET", 0, _): return listSessions()
        case ("POST", 0, _): return createSession(request.body)
        case (_, 0, _): return notAllowed(request, "GET, POST")
        case ("GET", 1, _): return withSession(rest[0]) { .json(200, SessionJSON($0, now: $1)) }
        case ("DELETE", 1, _): return endSession(rest[0])
        case (_, 1, _): return notAllowed(request, "GET, DELETE")
        case ("POST", 2, "reset"?): return withSession(rest[0]) { session, _ in
            session.reset()
            return AdminResponse(status: 204, body: [])
        }
        case (_, 2, "reset"?): return notAllowed(request, "POST")
        case ("GET", 2, "requests"?): return withSession(rest[0]) { session, _ in journal(session.journal, query: request.query) }
        case (_, 2, "requests"?): return notAllowed(request, "GET")
        case (_, 2, "scenarios"?), (_, 3, "scenarios"?), (_, 4, "scenarios"?):
            return withSession(rest[0]) { session, _ in scenarios(method, Array(rest.dropFirst(2)), request, board: session.scenarios) }
        case (_, 2, "rules"?), (_, 3, "rules"?):
            return withSession(rest[0]) { session, _ in sessionRules(method, session, Array(rest.dropFirst(2)), request) }
        default:
            return notFound(request)
        }
    }

    /// `GET /requests`: the global journal.
    func globalRequests(_ request: AdminRequest) -> AdminResponse {
        guard request.method == "GET" else { return notAllowed(request, "GET") }
        return journal(server.journal, query: request.query)
    }

    private func listSessions() -> AdminResponse {
        let now = MonotonicClock.nanoseconds()
        return .json(200, AdminBody.Sessions(sessions: server.sessions.all(now: now).map { SessionJSON($0, now: now) }))
    }

    private func createSession(_ body: [UInt8]) -> AdminResponse {
        let config = server.snapshot.config
        let request: SessionRequest
        do {
            request = try ConfigLoader.parseSessionRequest(Data(body), defaultTTLSeconds: config.sessions.defaultTTLSeconds)
        } catch {
            return AdminRefusal(invalid: error).response
        }
        let now = MonotonicClock.nanoseconds()
        do {
            let session = try server.sessions.create(request, config: config, now: now)
            return .json(201, SessionJSON(session, now: now))
        } catch {
            let field: String? = if case .clientClaimed = error { "session.clients" } else { nil }
            return AdminRefusal(409, error.message, field: field).response
        }
    }

    private func endSession(_ id: String) -> AdminResponse {
        guard server.sessions.remove(id: id, now: MonotonicClock.nanoseconds()) else { return unknownSession(id) }
        return AdminResponse(status: 204, body: [])
    }

    /// Runs `body` with the live session `id` (renewed), or answers 404.
    func withSession(_ id: String, _ body: (Session, UInt64) -> AdminResponse) -> AdminResponse {
        let now = MonotonicClock.nanoseconds()
        guard let session = server.sessions.session(id: id, now: now) else { return unknownSession(id) }
        return body(session, now)
    }

    private func unknownSession(_ id: String) -> AdminResponse {
        AdminRefusal(404, "no session \(JSONText.quoted(id)) (unknown, ended or expired)").response
    }
}
