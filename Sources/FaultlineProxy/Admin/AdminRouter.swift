import FaultlineIO
import Foundation

/// Answers admin requests: health, pin status, and the rules (list, add, replace, remove,
/// enable, disable, reset counters, stats). Every change goes through
/// `ProxyServerState.updateOverlay`, so it is all or nothing and reaches new exchanges atomically.
struct AdminRouter: Sendable {
    let server: ProxyServerState
    /// Where the proxy's listeners are bound, in config order (ephemeral ports resolved): the
    /// PAC file names the forward listener's port.
    var listenerAddresses: [SocketAddress] = []

    /// The endpoints, as listed in 404 answers.
    static let endpoints = [
        "GET /health", "GET /pins", "GET /pins/reports", "POST /pins/reports", "GET /stats", "GET /metrics", "GET /har", "DELETE /har", "GET /log", "GET /rules", "POST /rules", "POST /rules/reset",
        "GET /rules/{name}", "PUT /rules/{name}", "DELETE /rules/{name}",
        "POST /rules/{name}/enable", "POST /rules/{name}/disable",
        "POST /rules/{name}/faults/{fault}/enable", "POST /rules/{name}/faults/{fault}/disable",
        "GET /requests", "GET /sessions", "POST /sessions", "GET /sessions/{id}", "DELETE /sessions/{id}",
        "GET /sessions/{id}/rules", "POST /sessions/{id}/rules", "GET /sessions/{id}/rules/{name}",
        "PUT /sessions/{id}/rules/{name}", "DELETE /sessions/{id}/rules/{name}", "POST /sessions/{id}/reset",
        "GET /sessions/{id}/requests", "GET /sessions/{id}/scenarios", "POST /sessions/{id}/scenarios",
        "GET /sessions/{id}/scenarios/{name}", "DELETE /sessions/{id}/scenarios/{name}",
        "POST /sessions/{id}/scenarios/{name}/start", "POST /sessions/{id}/scenarios/{name}/stop",
        "GET /scenarios", "POST /scenarios", "GET /scenarios/{name}", "DELETE /scenarios/{name}",
        "POST /scenarios/{name}/start", "POST /scenarios/{name}/stop", "GET /ui/", "GET /exchanges", "GET /exchanges/{seq}", "GET /exchanges/stream", "GET /overview",
        "GET /intercept",
        "GET /ca.pem", "GET /ca.der", "GET /faultline.mobileconfig", "GET /proxy.pac",
    ]

    func respond(to request: AdminRequest) -> AdminResponse {
        // Split before decoding, so a name may hold an encoded "/".
        let segments = request.path.split(separator: "/", omittingEmptySubsequences: true)
            .map { String($0).removingPercentEncoding ?? String($0) }
        let method = request.method
        switch segments.first {
        case "health" where segments.count == 1, "healthz" where segments.count == 1:
            return method == "GET" ? health() : notAllowed(request, "GET")
        case "pins":
            return pins(method, Array(segments.dropFirst()), request)
        case "stats" where segments.count == 1:
            return method == "GET" ? stats() : notAllowed(request, "GET")
        case "metrics" where segments.count == 1:
            return method == "GET" ? metrics() : notAllowed(request, "GET")
        case "har" where segments.count == 1:
            return capture(method, request)
        case "log" where segments.count == 1:
            return logStatus(method, request)
        case "rules":
            return rules(method, Array(segments.dropFirst()), request)
        case "sessions":
            return sessions(method, Array(segments.dropFirst()), request)
        case "scenarios":
            return scenarios(method, Array(segments.dropFirst()), request, board: server.scenarios)
        case "requests" where segments.count == 1:
            return globalRequests(request)
        case "ui":
            return dashboard(method, Array(segments.dropFirst()), request)
        case nil:
            return rootRedirect(request)
        case "exchanges":
            return exchanges(method, Array(segments.dropFirst()), request)
        case "overview" where segments.count == 1:
            return overview(request)
        case "intercept" where segments.count == 1:
            return intercept(request)
        case let name? where segments.count == 1 && Self.deviceSetupPaths.contains("/" + name):
            return deviceSetup(name, request)
        default:
            return notFound(request)
        }
    }

    private func rules(_ method: String, _ rest: [String], _ request: AdminRequest) -> AdminResponse {
        switch (method, rest.count, rest.first, rest.dropFirst().first) {
        case ("GET", 0, _, _): return listRules()
        case ("POST", 0, _, _): return addRule(request.body)
        case (_, 0, _, _): return notAllowed(request, "GET, POST")
        case ("POST", 1, "reset"?, _): return resetCounters()
        case ("GET", 1, let name?, _): return showRule(name)
        case ("PUT", 1, let name?, _): return replaceRule(name, request.body)
        case ("DELETE", 1, let name?, _): return removeRule(name)
        case (_, 1, _, _): return notAllowed(request, "GET, PUT, DELETE")
        case ("POST", 2, let name?, let action?) where action == "enable" || action == "disable":
            return setEnabled(action == "enable", rule: name, fault: nil)
        case ("POST", 4, let name?, "faults"?) where rest[3] == "enable" || rest[3] == "disable":
            return setEnabled(rest[3] == "enable", rule: name, fault: rest[2])
        case (_, 2, _, let action?) where action == "enable" || action == "disable":
            return notAllowed(request, "POST")
        case (_, 4, _, "faults"?) where rest[3] == "enable" || rest[3] == "disable":
            return notAllowed(request, "POST")
        default:
            return notFound(request)
        }
    }

    private func health() -> AdminResponse {
        .json(200, AdminBody.Health(status: "ok", configGeneration: server.snapshot.generation, connections: server.connectionCount))
    }

    func notAllowed(_ request: AdminRequest, _ allowed: String) -> AdminResponse {
        AdminRefusal(405, "\(request.method) is not allowed on \(request.path) (allowed: \(allowed))").response
    }

    func notFound(_ request: AdminRequest) -> AdminResponse {
        .json(404, AdminBody.NotFound(error: "no admin endpoint \(request.method) \(request.path)", endpoints: Self.endpoints))
    }
}
