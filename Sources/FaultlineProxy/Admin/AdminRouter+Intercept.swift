/// `GET /intercept`: the hosts whose intercepted certificate clients refused, with counts,
/// the last reason and whether they now pass through.
extension AdminRouter {
    struct InterceptBody: Encodable {
        let hosts: [InterceptRefusals.Entry]
    }

    func intercept(_ request: AdminRequest) -> AdminResponse {
        guard request.method == "GET" else { return notAllowed(request, "GET") }
        return .json(200, InterceptBody(hosts: server.interceptRefusals.list()))
    }
}
