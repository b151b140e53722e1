import Foundation

/// Answers admin requests; read-only views of the running proxy for now (health, pin status).
struct AdminRouter: Sendable {
    let server: ProxyServerState

    func respond(to request: AdminRequest) -> AdminResponse {
        switch (request.method, request.path) {
        case ("GET", "/health"), ("GET", "/healthz"):
            return .json(200, [
                "status": "ok",
                "config_generation": server.snapshot.generation,
                "connections": server.connectionCount,
            ])
        case ("GET", "/pins"):
            return .json(200, ["upstreams": server.pinStatus.report()])
        case (_, "/health"), (_, "/healthz"), (_, "/pins"):
            return .error(405, "\(request.method) is not allowed on \(request.path)")
        default:
            return .error(404, "no admin endpoint \(request.path) (known: /health, /pins)")
        }
    }
}
